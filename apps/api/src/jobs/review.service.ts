import { InjectQueue } from '@nestjs/bullmq';
import { REQUIRED_MESSAGE } from '@csv-mapper/rules';
import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import { checkValue, compileRules, type ApplyStats } from '@csv-mapper/csv-engine';
import { jobTeamOf } from '@csv-mapper/contracts';
import type {
  EditProblem,
  IssuesPage,
  IssuesQuery,
  PatchCellsRequest,
  PatchCellsResponse,
  RerunResponse,
  TemplateRules,
} from '@csv-mapper/contracts';
import {
  BlobNotFoundError,
  BlobStore,
  loadIssues,
  loadPatch,
  loadReview,
  PATCH_MAX,
  QUEUES,
  RedisLocks,
  saveIssues,
  savePatch,
  saveReview,
  type PatchDoc,
  type ProcessCsvPayload,
  type ProcessCsvResult,
  type ReviewRecord,
} from '@csv-mapper/queue';
import { QuotaLedger } from '@csv-mapper/db';
import { AppError } from '../common/app-error';
import { pageOffset } from '../common/cursor';
import { JobsService } from './jobs.service';

// Review and fix before download (issue 22): a run's problems paged from the issues stored beside it,
// the user's edits kept as a patch beside the upload (never a rewrite of it), and a corrected run queued
// with that patch. A run is a background job, or a sync run's review record (the sync answer's
// `reviewId`); both answer on the same /api/jobs/:id routes. Someone else's id answers 404.

const notFound = () => new AppError(404, 'NOT_FOUND', 'Job not found. It may have expired.');

/** A run as the review routes see it. */
interface Run {
  /** The run whose problems are listed. */
  runId: string;
  /** The review session (the first run's id): the patch is stored under it and reruns carry it. */
  reviewId: string;
  record: ReviewRecord;
  finished: boolean;
}

@Injectable()
export class ReviewService {
  constructor(
    @InjectQueue(QUEUES.csvJobs) private readonly queue: Queue<ProcessCsvPayload, ProcessCsvResult>,
    private readonly store: BlobStore,
    private readonly jobs: JobsService,
    private readonly quota: QuotaLedger,
    private readonly locks: RedisLocks,
  ) {}

  /** Keeps a sync run's request and problems for the review routes; answers its review id. */
  async saveSyncRun(userId: string, record: ReviewRecord, stats: ApplyStats): Promise<string> {
    const reviewId = `sync-${randomUUID()}`;
    await saveReview(this.store, reviewId, record);
    await saveIssues(this.store, reviewId, userId, stats.warnings, {
      total: stats.warningCount,
      byRule: stats.warningsByRule,
      truncated: stats.warningCount > stats.warnings.length,
    });
    return reviewId;
  }

  async issues(userId: string, id: string, q: IssuesQuery): Promise<IssuesPage> {
    const run = await this.run(userId, id);
    if (!run.finished) {
      throw new AppError(
        409,
        'JOB_NOT_FINISHED',
        'The job has not finished yet: its problems are listed once it has.',
      );
    }
    const stored = await loadIssues(this.store, run.runId, userId);
    if (!stored) {
      throw new AppError(
        410,
        'RESULT_EXPIRED',
        'The problems of this run have expired with its files. Run it again.',
      );
    }
    const matching = stored.issues.filter(
      (i) =>
        (q.rule === undefined || (q.rule === 'other' ? i.rule === undefined : i.rule === q.rule)) &&
        (q.column === undefined || i.column === q.column),
    );
    const start = pageOffset(q.cursor);
    const limit = q.limit ?? 100;
    const end = start + limit;
    return {
      issues: matching.slice(start, end),
      nextCursor: end < matching.length ? String(end) : null,
      total: matching.length,
      byRule: stored.info.byRule,
      truncated: stored.info.truncated,
    };
  }

  async patchCells(userId: string, id: string, body: PatchCellsRequest): Promise<PatchCellsResponse> {
    const run = await this.run(userId, id);
    const { record } = run;
    await this.uploadAlive(record, userId);
    const columns = new Set(record.templateHeaders);
    const edits = body.edits ?? [];
    const deleteRows = body.deleteRows ?? [];
    const restoreRows = body.restoreRows ?? [];
    for (const e of edits) {
      if (!columns.has(e.column)) {
        throw new AppError(400, 'UNKNOWN_COLUMN', `"${e.column}" is not a column of the template.`);
      }
    }
    for (const row of [...edits.map((e) => e.row), ...deleteRows, ...restoreRows]) {
      if (row > record.totalRows) {
        throw new AppError(
          400,
          'INVALID_ROW',
          `Row ${row} is not in the file: its data rows are numbered 1 to ${record.totalRows}.`,
        );
      }
    }
    const problems = this.checkEdits(record, edits);
    const doc = await this.locked(run.reviewId, async () => {
      const current = await loadPatch(this.store, run.reviewId, userId);
      const merged = mergePatch(current, edits, deleteRows, restoreRows);
      if (merged.edits.length + merged.deleted.length > PATCH_MAX) {
        throw new AppError(
          413,
          'PATCH_TOO_LARGE',
          `A patch holds at most ${PATCH_MAX} edits and deletions. Fix the rest in the source file, or map it with a transform.`,
        );
      }
      await savePatch(this.store, run.reviewId, userId, merged);
      return merged;
    });
    return {
      cellsEdited: doc.edits.length,
      rowsEdited: new Set(doc.edits.map(([row]) => row)).size,
      rowsDeleted: doc.deleted.length,
      problems,
    };
  }

  async rerun(userId: string, plan: string, id: string): Promise<RerunResponse> {
    const run = await this.run(userId, id);
    const { record } = run;
    await this.uploadAlive(record, userId);
    const patch = await loadPatch(this.store, run.reviewId, userId);
    // The same patch of the same session is one corrected run (a double click queues nothing new).
    const dedupeKey = `rerun:${createHash('sha256')
      .update(JSON.stringify([userId, run.reviewId, patch]))
      .digest('hex')}`;
    const existing = await this.jobs.findExisting(userId, dedupeKey);
    if (existing) return { jobId: existing.jobId, status: 'queued' };
    const reservation = await this.quota.reserveForFile(userId, plan, record.totalRows);
    if (!reservation) throw new AppError(401, 'UNAUTHORIZED', 'Unauthorized: your account no longer exists.');
    if (reservation.granted === 0) {
      throw new AppError(
        403,
        'QUOTA_EXHAUSTED',
        'Your monthly rows are used up: the corrected file cannot be made until the quota resets or you upgrade.',
      );
    }
    try {
      const jobId = await this.jobs.enqueueProcessCsv(
        plan,
        { ...record, maxRows: reservation.granted, reviewId: run.reviewId, applyPatch: true },
        dedupeKey,
      );
      return { jobId, status: 'queued' };
    } catch (err) {
      await this.quota.refund(userId, reservation.granted);
      throw err;
    }
  }

  /** Edits checked against the column's rules (unique needs the whole file: checked by the rerun). */
  private checkEdits(record: ReviewRecord, edits: PatchCellsRequest['edits']): EditProblem[] {
    const rules: TemplateRules = record.templateRules ?? {};
    const required = new Set((record.options?.required as string[] | undefined) ?? []);
    const problems: EditProblem[] = [];
    const compiled = new Map<string, ReturnType<typeof compileRules>>();
    for (const e of edits) {
      const r = rules[e.column];
      if (e.value === '') {
        if (r?.required || required.has(e.column)) {
          problems.push({
            row: e.row,
            column: e.column,
            rule: 'required',
            message: REQUIRED_MESSAGE,
          });
        }
        continue;
      }
      if (!r) continue;
      if (!compiled.has(e.column)) compiled.set(e.column, compileRules({ ...r, unique: false }, e.column));
      const c = compiled.get(e.column);
      if (c) {
        checkValue(c, e.value, e.row, (rule, message) =>
          problems.push({ row: e.row, column: e.column, rule, message }),
        );
      }
    }
    return problems;
  }

  /** Patches expire with the upload: no edits or reruns once the data file is gone. */
  private async uploadAlive(record: ReviewRecord, userId: string): Promise<void> {
    try {
      await this.store.getMeta(record.dataFileId, userId);
    } catch (err) {
      if (err instanceof BlobNotFoundError) {
        throw new AppError(
          410,
          'DATA_FILE_EXPIRED',
          'The data file of this run has expired, and its edits with it. Upload it again.',
        );
      }
      throw err;
    }
  }

  private async run(userId: string, id: string): Promise<Run> {
    if (!/^[\w-]{1,100}$/.test(id)) throw notFound();
    if (id.startsWith('sync-')) {
      const record = await loadReview(this.store, id, userId);
      if (!record) throw notFound();
      return { runId: id, reviewId: id, record, finished: true };
    }
    const job = await this.queue.getJob(id);
    if (!job || jobTeamOf(job.data) !== userId) throw notFound();
    const { maxRows: _maxRows, applyPatch: _applyPatch, ...record } = job.data;
    const state = await job.getState();
    return { runId: id, reviewId: job.data.reviewId ?? id, record, finished: state === 'completed' };
  }

  /**
   * One patch writer per review session at a time (read, merge, write). A second writer waits for the
   * first one's release (a notification, not polling), for up to 5 s, then answers 409.
   */
  private async locked<T>(reviewId: string, fn: () => Promise<T>): Promise<T> {
    const held = await this.locks.lock(`patch-lock:${reviewId}`, 10_000).acquire(5_000);
    if (!held) {
      throw new AppError(
        409,
        'REQUEST_IN_PROGRESS',
        'Another change to these cells is being saved. Try again.',
      );
    }
    try {
      return await fn();
    } finally {
      await held.release();
    }
  }
}

/** Later edits of a cell win; a deleted row stays deleted until restored. */
export function mergePatch(
  current: PatchDoc,
  edits: PatchCellsRequest['edits'],
  deleteRows: number[],
  restoreRows: number[],
): PatchDoc {
  const cells = new Map<string, [number, string, string]>();
  for (const e of current.edits) cells.set(`${e[0]}\u0000${e[1]}`, e);
  for (const e of edits) cells.set(`${e.row}\u0000${e.column}`, [e.row, e.column, e.value]);
  const deleted = new Set(current.deleted);
  for (const r of deleteRows) deleted.add(r);
  for (const r of restoreRows) deleted.delete(r);
  return {
    edits: [...cells.values()].sort((a, b) => a[0] - b[0]),
    deleted: [...deleted].sort((a, b) => a - b),
  };
}
