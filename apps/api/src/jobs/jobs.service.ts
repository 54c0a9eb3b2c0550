import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import type { Readable } from 'node:stream';
import { planOf } from '@csv-mapper/domain';
import {
  BatchStore,
  BlobNotFoundError,
  BlobStore,
  JobProducer,
  jobEventBase,
  jobIdFrom,
  QUEUES,
  RedisLocks,
  UserJobIndex,
  type HeldLock,
  type JobWarning,
  type JobProgress,
  type ProcessCsvPayload,
  type ProcessCsvResult,
} from '@csv-mapper/queue';
import { jobTeamOf, type JobState, type JobView } from '@csv-mapper/contracts';
import { AppError } from '../common/app-error';
import { ApiConfig } from '../config/api.config';

export type { JobState, JobView } from '@csv-mapper/contracts';

/** Lifetime of the signed download URL a result answers with when files are in object storage. */
const RESULT_URL_SECONDS = 300;

/** How long a request key stays claimed if its holder dies before releasing it. */
const CLAIM_TTL_MS = 30_000;
/** How long a double submit waits for the first one's job before answering 409 REQUEST_IN_PROGRESS. */
const CLAIM_WAIT_MS = 5_000;

const notFound = () => new AppError(404, 'NOT_FOUND', 'Job not found. It may have expired.');

/** Background CSV jobs: enqueue with plan priority, read state for the owner only, stream results. */
@Injectable()
export class JobsService {
  constructor(
    @InjectQueue(QUEUES.csvJobs) private readonly queue: Queue<ProcessCsvPayload, ProcessCsvResult>,
    private readonly producer: JobProducer,
    private readonly index: UserJobIndex,
    private readonly store: BlobStore,
    private readonly locks: RedisLocks,
    private readonly config: ApiConfig,
    private readonly batches: BatchStore,
  ) {}

  /** `dedupeKey` derived from the request makes a double submit one job. */
  async enqueueProcessCsv(plan: string, payload: ProcessCsvPayload, dedupeKey: string): Promise<string> {
    const jobId = await this.producer.enqueue(QUEUES.csvJobs, 'process-csv', payload, {
      dedupeKey,
      priority: planOf(plan).queuePriority,
    });
    await this.index.add(jobTeamOf(payload), jobId);
    return jobId;
  }

  /**
   * The job a request key already created (queued, running or completed within retention), if any.
   * A failed or cancelled one is removed so the request can run again.
   */
  async findExisting(
    userId: string,
    dedupeKey: string,
  ): Promise<{ jobId: string; status: 'queued'; rowsToProcess: number } | null> {
    const job = await this.queue.getJob(jobIdFrom(QUEUES.csvJobs, dedupeKey));
    // The key holds the caller (a run) or the team (a corrected run): either may own the job it names.
    if (!job || (job.data.userId !== userId && jobTeamOf(job.data) !== userId)) return null;
    const state = await this.stateOf(job);
    if (state === 'failed' || state === 'cancelled') {
      await job.remove().catch(() => undefined);
      return null;
    }
    return { jobId: job.id as string, status: 'queued', rowsToProcess: job.data.maxRows };
  }

  /**
   * The job an identical request created (`existing`), or a claim on the request key for this one: the
   * caller runs, then releases it (`held.release()`: only this claim's token, so a claim that lapsed and
   * was taken by another request is never released by the first). A double submit that finds the key
   * claimed waits for the claim's release (a notification, not polling) and answers the job it created;
   * 409 after CLAIM_WAIT_MS.
   */
  async awaitExistingOrClaim(
    userId: string,
    dedupeKey: string,
  ): Promise<
    | { existing: { jobId: string; status: 'queued'; rowsToProcess: number }; held: null }
    | { existing: null; held: HeldLock }
  > {
    const lock = this.claimLock(dedupeKey);
    const deadline = Date.now() + CLAIM_WAIT_MS;
    for (;;) {
      const existing = await this.findExisting(userId, dedupeKey);
      if (existing) return { existing, held: null };
      const held = await lock.tryAcquire();
      if (held) return { existing: null, held };
      const left = deadline - Date.now();
      if (left <= 0 || !(await lock.waitForRelease(left))) {
        throw new AppError(
          409,
          'REQUEST_IN_PROGRESS',
          'The same request is already being queued. Try again in a moment.',
        );
      }
    }
  }

  private claimLock(dedupeKey: string) {
    return this.locks.lock(`process-claim:${jobIdFrom(QUEUES.csvJobs, dedupeKey)}`, CLAIM_TTL_MS);
  }

  async list(teamId: string, limit = 20): Promise<JobView[]> {
    const ids = await this.index.list(teamId, limit);
    const jobs = await Promise.all(ids.map((id) => this.queue.getJob(id)));
    const views = await Promise.all(
      jobs
        .filter((j): j is Job<ProcessCsvPayload, ProcessCsvResult> => !!j && jobTeamOf(j.data) === teamId)
        .map((j) => this.view(j)),
    );
    return views;
  }

  async get(teamId: string, id: string): Promise<JobView> {
    return this.view(await this.owned(teamId, id));
  }

  /**
   * The result's bytes, or (`allowRedirect`, object storage on) a short-lived signed URL the client
   * follows, so storage serves the bytes itself.
   */
  async openResult(teamId: string, id: string): Promise<{ filename: string; size: number; stream: Readable }>;
  async openResult(
    teamId: string,
    id: string,
    opts: { allowRedirect: true },
  ): Promise<{ filename: string; size: number; stream: Readable } | { redirect: string }>;
  async openResult(
    teamId: string,
    id: string,
    opts: { allowRedirect?: boolean } = {},
  ): Promise<{ filename: string; size: number; stream: Readable } | { redirect: string }> {
    let job = await this.owned(teamId, id);
    const state = await this.stateOf(job);
    if (state === 'completed' && !job.returnvalue) job = (await this.queue.getJob(id)) ?? job;
    if (state !== 'completed' || !job.returnvalue) {
      throw new AppError(
        409,
        'JOB_NOT_FINISHED',
        'The job has not finished yet. Poll GET /api/jobs/:id until it is completed.',
      );
    }
    try {
      const redirect = opts.allowRedirect
        ? await this.store.presignGet(job.returnvalue.resultId, teamId, {
            filename: job.returnvalue.filename,
            contentType: 'text/csv; charset=utf-8',
            expiresInSeconds: RESULT_URL_SECONDS,
          })
        : null;
      if (redirect) return { redirect };
      const { meta, stream } = await this.store.openRead(job.returnvalue.resultId, teamId);
      return { filename: job.returnvalue.filename, size: meta.size, stream };
    } catch (err) {
      if (err instanceof BlobNotFoundError) {
        throw new AppError(
          410,
          'RESULT_EXPIRED',
          'This result has expired (results are kept for 1 hour). Run the job again.',
        );
      }
      throw err;
    }
  }

  /** Whether a completed job's result is still kept (results expire after their TTL). */
  async hasResult(userId: string, id: string): Promise<boolean> {
    const job = await this.owned(userId, id);
    const resultId = job.returnvalue?.resultId ?? (await this.queue.getJob(id))?.returnvalue?.resultId;
    if (!resultId) return false;
    try {
      await this.store.getMeta(resultId, userId);
      return true;
    } catch (err) {
      if (err instanceof BlobNotFoundError) return false;
      throw err;
    }
  }

  /** Waiting jobs are removed; an active job stops at its next progress check. */
  async cancel(teamId: string, id: string): Promise<JobView> {
    const job = await this.owned(teamId, id);
    const state = await this.stateOf(job);
    if (state === 'completed' || state === 'failed') {
      throw new AppError(409, 'JOB_FINISHED', 'The job has already finished and cannot be cancelled.');
    }
    await this.index.requestCancel(id);
    // A job removed before it ran never reaches the worker's failure path: raise job.cancelled here.
    // One the worker already holds stops at its next progress check and raises it there.
    if (
      state === 'queued' &&
      (await job.remove().then(
        () => true,
        () => false,
      ))
    ) {
      await this.producer.enqueue(
        QUEUES.webhooks,
        'dispatch',
        {
          userId: teamId,
          event: 'job.cancelled',
          subjectId: id,
          data: jobEventBase(id, job.data, 'cancelled'),
        },
        { dedupeKey: `dispatch:job.cancelled:${id}` },
      );
      if (job.data.batchId) {
        const done = await this.batches.finishJob(
          job.data.batchId,
          {
            jobId: id,
            dataFilename: job.data.dataFilename,
            state: 'cancelled',
            rowsWritten: 0,
            warningCount: 0,
          },
          this.config.appUrl,
        );
        if (done) {
          await this.producer.enqueue(
            QUEUES.webhooks,
            'dispatch',
            { userId: teamId, event: 'batch.completed', subjectId: job.data.batchId, data: done.data },
            { dedupeKey: `dispatch:batch.completed:${job.data.batchId}` },
          );
        }
      }
    }
    return { ...(await this.view(job)), state: 'cancelled' };
  }

  private async owned(teamId: string, id: string): Promise<Job<ProcessCsvPayload, ProcessCsvResult>> {
    if (!/^[\w-]{1,100}$/.test(id)) throw notFound();
    const job = await this.queue.getJob(id);
    if (!job || jobTeamOf(job.data) !== teamId) throw notFound();
    return job;
  }

  private async stateOf(job: Job): Promise<JobState> {
    const s = await job.getState();
    if (s === 'completed') return 'completed';
    if (s === 'failed') return job.failedReason === 'The job was cancelled.' ? 'cancelled' : 'failed';
    if (s === 'active') return 'active';
    return 'queued';
  }

  /** The warning samples kept with the result (gone, like the result, after its TTL). */
  private async warningSamples(r: ProcessCsvResult, userId: string): Promise<JobWarning[]> {
    if (r.warningsCount === 0) return [];
    try {
      const meta = await this.store.getMeta(r.resultId, userId);
      return Array.isArray(meta.info.warnings) ? (meta.info.warnings as JobWarning[]) : [];
    } catch (err) {
      if (err instanceof BlobNotFoundError) return [];
      throw err;
    }
  }

  private async view(fetched: Job<ProcessCsvPayload, ProcessCsvResult>): Promise<JobView> {
    let job = fetched;
    const state = await this.stateOf(job);
    // The job may have finished between reading it and reading its state: read it again for its result.
    if (state === 'completed' && !job.returnvalue) job = (await this.queue.getJob(job.id as string)) ?? job;
    const p = (typeof job.progress === 'object' ? job.progress : null) as JobProgress | null;
    const r = job.returnvalue ?? null;
    return {
      id: job.id as string,
      state,
      progress: state === 'completed' ? 100 : (p?.percent ?? 0),
      rowsProcessed: r?.rowsProcessed ?? p?.rowsDone ?? 0,
      totalRows: Math.min(job.data.totalRows, job.data.maxRows),
      warnings: r?.warningsCount ?? p?.warnings ?? 0,
      ...(r
        ? {
            warningSamples: await this.warningSamples(r, jobTeamOf(job.data)),
            controlTotals: r.controlTotals,
            ...(r.totals ? { totals: r.totals } : {}),
            ...(r.output ? { output: r.output } : {}),
            ...(r.warningsByRule ? { warningsByRule: r.warningsByRule } : {}),
            ...(r.corrections ? { corrections: r.corrections } : {}),
          }
        : {}),
      filename: r?.filename ?? job.data.dataFilename,
      error: state === 'failed' || state === 'cancelled' ? job.failedReason || 'The job failed.' : null,
      resultUrl: state === 'completed' ? `/api/jobs/${job.id}/result` : null,
      createdAt: new Date(job.timestamp).toISOString(),
      finishedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
    };
  }
}
