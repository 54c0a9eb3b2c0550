import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { outputFilename as outputName } from '@csv-mapper/domain';
import { QuotaLedger, rowsAllowedForFile } from '@csv-mapper/db';
import { BatchStore, jobIdFrom, QUEUES, type BatchRecord } from '@csv-mapper/queue';
import type {
  BatchCreatedResponse,
  BatchFileView,
  BatchRejection,
  BatchTotals,
  BatchView,
  CreateBatchRequest,
  ProcessCsvPayload,
} from '@csv-mapper/contracts';
import type { AuthUser } from '../auth/auth-user';
import { AppError } from '../common/app-error';
import { requirePlanFeature } from '../common/plan-feature';
import { JobsService } from '../jobs/jobs.service';
import { ProcessingService } from '../processing/processing.service';
import { UploadsService } from '../uploads/uploads.service';

// Bulk uploads: one template and one mapping over up to 20 uploaded data files. Each file is checked on its
// own (a file that does not fit is named with the reason, the others go on); the rows of every accepted
// file are reserved in one step before anything is queued; then one background job runs per file.

/** Errors that concern one data file, not the batch: that file is left out, the others go on. */
const PER_FILE_CODES = new Set([
  'FILE_NOT_FOUND',
  'UNKNOWN_COLUMN',
  'NO_DATA_ROWS',
  'EMPTY_FILE',
  'SOURCE_CHANGED',
]);

const notFound = () => new AppError(404, 'NOT_FOUND', 'Batch not found. It may have expired.');

@Injectable()
export class BatchesService {
  constructor(
    private readonly processing: ProcessingService,
    private readonly jobs: JobsService,
    private readonly batches: BatchStore,
    private readonly quota: QuotaLedger,
    private readonly uploads: UploadsService,
  ) {}

  async create(user: AuthUser, req: CreateBatchRequest): Promise<BatchCreatedResponse> {
    const limits = requirePlanFeature(
      user.plan,
      'asyncProcessing',
      'Bulk uploads are available on the Business and Enterprise plans. Map one data file at a time, or upgrade.',
    );
    const batchId = randomUUID();
    const accepted: Array<{ payload: ProcessCsvPayload; jobId: string; dedupeKey: string }> = [];
    const rejected: BatchRejection[] = [];
    for (const dataFileId of req.dataFileIds) {
      try {
        const prepared = await this.processing.prepare(user, { ...req, dataFileId, async: true }, true);
        const rows = rowsAllowedForFile(user.plan, prepared.data.info.rowCount);
        const payload = this.processing.jobPayload(
          user,
          { ...prepared.req, dataFileId },
          prepared,
          rows,
          batchId,
        );
        const dedupeKey = `batch:${batchId}:${dataFileId}`;
        accepted.push({ payload, dedupeKey, jobId: jobIdFrom(QUEUES.csvJobs, dedupeKey) });
      } catch (err) {
        if (!(err instanceof AppError) || !PER_FILE_CODES.has(err.code)) throw err;
        rejected.push({
          dataFileId,
          filename: await this.filenameOf(user, dataFileId),
          reason: (err.getResponse() as { error: string }).error,
        });
      }
    }
    if (accepted.length === 0) {
      throw new AppError(
        400,
        'NO_FILES_ACCEPTED',
        `None of the data files fits the mapping: ${rejected.map((r) => `${r.filename ?? r.dataFileId}: ${r.reason}`).join(' ')}`,
        { rejected },
      );
    }

    // The whole batch's rows at once: a batch starts only when every accepted file can run in full.
    const needed = accepted.reduce((sum, a) => sum + a.payload.maxRows, 0);
    const granted = await this.quota.reserve(user.teamId, needed, limits.maxMonthlyRows);
    if (granted === null)
      throw new AppError(401, 'UNAUTHORIZED', 'Unauthorized: your account no longer exists.');
    if (granted < needed) {
      await this.quota.refund(user.teamId, granted);
      throw new AppError(
        403,
        'BATCH_QUOTA_EXCEEDED',
        `This batch needs ${needed.toLocaleString('en-GB')} rows but ${granted.toLocaleString('en-GB')} are left ` +
          'this month. Send fewer files, wait for the monthly reset, or upgrade.',
        { rowsNeeded: needed, rowsLeft: granted },
      );
    }

    const first = accepted[0].payload;
    const record: BatchRecord = {
      id: batchId,
      // A batch belongs to the team (its id is what the record's userId holds, as for jobs before teams).
      userId: user.teamId,
      templateFilename: first.templateFilename ?? null,
      mappingName: first.mappingName ?? null,
      files: accepted.map((a) => ({
        jobId: a.jobId,
        dataFileId: a.payload.dataFileId,
        filename: a.payload.dataFilename,
      })),
      rejected,
      createdAt: new Date().toISOString(),
    };
    // Stored before the first job is queued: a worker finishing a file finds the batch it belongs to.
    await this.batches.create(record);
    let queued = 0;
    try {
      for (const a of accepted) {
        await this.jobs.enqueueProcessCsv(user.plan, a.payload, a.dedupeKey);
        queued += 1;
      }
    } catch (err) {
      const unqueued = accepted.slice(queued).reduce((sum, a) => sum + a.payload.maxRows, 0);
      await this.quota.refund(user.teamId, unqueued);
      throw err;
    }
    return {
      batchId,
      jobs: accepted.map((a) => ({ jobId: a.jobId, dataFileId: a.payload.dataFileId })),
      rejected,
    };
  }

  async list(user: AuthUser): Promise<BatchView[]> {
    return Promise.all((await this.batches.list(user.teamId)).map((b) => this.view(user, b)));
  }

  async get(user: AuthUser, id: string): Promise<BatchView> {
    return this.view(user, await this.owned(user, id));
  }

  /**
   * The completed files' results, each opened only when the ZIP reaches it. Refused while files are still
   * running, and when no completed file's result is left.
   */
  async results(
    user: AuthUser,
    id: string,
  ): Promise<{ filename: string; entries: Array<{ name: string; open: () => Promise<Readable> }> }> {
    const view = await this.view(user, await this.owned(user, id));
    if (view.state !== 'completed') {
      throw new AppError(
        409,
        'JOB_NOT_FINISHED',
        'The batch is still running. Download the ZIP once every file has finished (GET /api/batches/:id).',
      );
    }
    const completed = view.files.filter((f) => f.state === 'completed');
    const available = [];
    for (const f of completed) {
      if (await this.jobs.hasResult(user.teamId, f.jobId)) available.push(f);
    }
    if (available.length === 0) {
      throw new AppError(
        completed.length === 0 ? 409 : 410,
        completed.length === 0 ? 'JOB_FAILED' : 'RESULT_EXPIRED',
        completed.length === 0
          ? 'No file of this batch completed, so there is nothing to download. GET /api/batches/:id says why.'
          : "This batch's results have expired (results are kept for 1 hour). Run the batch again.",
      );
    }
    const names = new Map<string, number>();
    const entries = available.map((f) => {
      const base = outputName(f.filename);
      const seen = names.get(base) ?? 0;
      names.set(base, seen + 1);
      const name = seen === 0 ? base : base.replace(/(\.csv)?$/i, ` (${seen + 1})$1`);
      return { name, open: async () => (await this.jobs.openResult(user.teamId, f.jobId)).stream };
    });
    return { filename: `batch-${id.slice(0, 8)}.zip`, entries };
  }

  private async filenameOf(user: AuthUser, dataFileId: string): Promise<string | null> {
    try {
      return (await this.uploads.get(dataFileId, user.teamId, 'Data file')).meta.filename;
    } catch {
      return null;
    }
  }

  private async owned(user: AuthUser, id: string): Promise<BatchRecord> {
    if (!/^[\w-]{1,100}$/.test(id)) throw notFound();
    const batch = await this.batches.get(id, user.teamId);
    if (!batch) throw notFound();
    return batch;
  }

  private async view(user: AuthUser, b: BatchRecord): Promise<BatchView> {
    const files: BatchFileView[] = await Promise.all(
      b.files.map(async (f): Promise<BatchFileView> => {
        try {
          const j = await this.jobs.get(user.teamId, f.jobId);
          return {
            jobId: f.jobId,
            dataFileId: f.dataFileId,
            filename: f.filename,
            state: j.state,
            progress: j.progress,
            rowsProcessed: j.rowsProcessed,
            totalRows: j.totalRows,
            warnings: j.warnings,
            error: j.error,
            resultUrl: j.resultUrl,
          };
        } catch (err) {
          if (!(err instanceof AppError) || err.code !== 'NOT_FOUND') throw err;
          // A queued job removed by a cancel, or one past the queue's retention.
          return {
            jobId: f.jobId,
            dataFileId: f.dataFileId,
            filename: f.filename,
            state: 'cancelled',
            progress: 0,
            rowsProcessed: 0,
            totalRows: 0,
            warnings: 0,
            error: 'The job was cancelled or has expired.',
            resultUrl: null,
          };
        }
      }),
    );
    const totals = totalsOf(files);
    const done = totals.completed + totals.failed + totals.cancelled === totals.files;
    const outcomes = done ? await this.batches.outcomes(b.id) : new Map();
    const finishedAt = done
      ? ([...outcomes.values()]
          .map((o) => o.finishedAt)
          .sort()
          .pop() ?? new Date().toISOString())
      : null;
    return {
      id: b.id,
      state: done ? 'completed' : 'running',
      templateFilename: b.templateFilename,
      mappingName: b.mappingName,
      files,
      rejected: b.rejected,
      totals,
      resultZipUrl: done && totals.completed > 0 ? `/api/batches/${b.id}/result.zip` : null,
      createdAt: b.createdAt,
      finishedAt,
    };
  }
}

function totalsOf(files: BatchFileView[]): BatchTotals {
  const count = (s: BatchFileView['state']) => files.filter((f) => f.state === s).length;
  const rowsProcessed = files.reduce((sum, f) => sum + f.rowsProcessed, 0);
  const totalRows = files.reduce((sum, f) => sum + f.totalRows, 0);
  const finished = files.filter((f) => f.state !== 'queued' && f.state !== 'active').length;
  // Finished files count in full (a failed file will not progress); running ones by their rows.
  const weighted = files.reduce(
    (sum, f) => sum + (f.state === 'queued' || f.state === 'active' ? f.progress : 100),
    0,
  );
  return {
    files: files.length,
    queued: count('queued'),
    active: count('active'),
    completed: count('completed'),
    failed: count('failed'),
    cancelled: count('cancelled'),
    rowsProcessed,
    totalRows,
    progress:
      files.length === 0 ? 100 : finished === files.length ? 100 : Math.floor(weighted / files.length),
  };
}
