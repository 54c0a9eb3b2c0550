import { InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { StalledJobsService } from '../metrics/stalled-jobs.service';
import { Logger } from '@nestjs/common';
import { DelayedError, Job, Queue, UnrecoverableError } from 'bullmq';
import { DataSource } from 'typeorm';
import {
  applyMapping,
  isCsvEngineError,
  runTotals,
  sourceChunks,
  type MappingPair,
} from '@csv-mapper/csv-engine';
import { outputFilename as outputName } from '@csv-mapper/domain';
import {
  BatchStore,
  BlobNotFoundError,
  BlobStore,
  deferForOutage,
  isInfrastructureError,
  JOB_RETENTION,
  JobDurationMetrics,
  jobEventBase,
  jobIdFrom,
  OutageBudgetExhaustedError,
  QUEUES,
  ISSUES_MAX,
  loadPatch,
  resultIdFor,
  rowPatchOf,
  saveIssues,
  UserJobIndex,
  type BatchEventFile,
  type JobFailedPayload,
  type JobProgress,
  type ProcessCsvPayload,
  type ProcessCsvResult,
} from '@csv-mapper/queue';
import { WorkerConfig } from '../config/worker.config';
import { isForcedShutdown } from '../shutdown';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.service';
import { historyRetentionDays, QuotaLedger, RunHistoryStore, type StartedRun } from '@csv-mapper/db';
import { jobTeamOf } from '@csv-mapper/contracts';

const PROGRESS_INTERVAL_MS = 250;

export class JobCancelledError extends UnrecoverableError {
  constructor() {
    super('The job was cancelled.');
  }
}

/** A failure that retrying cannot fix, with the code webhook consumers and the api see. */
export class JobFailedError extends UnrecoverableError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What a client sees when the service was unreachable for the whole outage budget (no host, no driver text). */
const OUTAGE_MESSAGE =
  'The job could not run because our database or queue was unavailable for too long. ' +
  'Nothing was counted against your monthly rows: run the job again.';
/** What a client sees after an unexpected error (the details go to the worker's log only). */
const INTERNAL_MESSAGE =
  'The job failed because of an error on our side, not in your file. Run it again; if it fails again, contact support.';
/** A refund and `job.failed` wait out an outage this long (then the failure is logged for an operator). */
const FINISH_FAILED_BUDGET_MS = 24 * 3600_000;

/** Files from this size on are mapped with ENGINE_THREADS threads. */
const PARALLEL_MIN_BYTES = 8 * 1024 * 1024;

/**
 * Large and async files: stream the upload from Redis through the engine into a result blob,
 * reporting progress at most every 250 ms. Bad input fails once (UnrecoverableError); anything
 * else is retried by BullMQ with backoff. Usage is recorded once per job id.
 */
@Processor(QUEUES.csvJobs)
export class CsvJobsProcessor extends WorkerHost {
  private readonly logger = new Logger(CsvJobsProcessor.name);
  /** Saved mappings' run history (mapping_runs and fingerprints); loaded per job, kept nowhere else. */
  private readonly runHistory: RunHistoryStore;

  constructor(
    private readonly store: BlobStore,
    private readonly quota: QuotaLedger,
    private readonly index: UserJobIndex,
    private readonly webhooks: WebhookDispatcher,
    private readonly metrics: JobDurationMetrics,
    private readonly config: WorkerConfig,
    private readonly stalled: StalledJobsService,
    private readonly batches: BatchStore,
    private readonly ds: DataSource,
    @InjectQueue(QUEUES.csvJobs) private readonly queue: Queue,
  ) {
    super();
    this.runHistory = new RunHistoryStore(ds, historyRetentionDays());
  }

  /** Duration of the successful attempt (processedOn → finishedOn) into the shared histogram. */
  @OnWorkerEvent('completed')
  async onCompleted(job: Job<ProcessCsvPayload> | undefined): Promise<void> {
    if (!job || job.name !== 'process-csv') return;
    await this.observe(job, 'completed');
  }

  private async observe(job: Job, outcome: 'completed' | 'failed'): Promise<void> {
    const start = job.processedOn ?? job.timestamp;
    const seconds = Math.max(0, ((job.finishedOn ?? Date.now()) - start) / 1000);
    await this.metrics.observe(outcome, seconds).catch(() => undefined);
  }

  /**
   * Final failure (bad input, cancel, retries or the outage budget exhausted): the refund, `job.failed` and
   * the batch bookkeeping run as their own `job-failed` job (one per csv job), which waits out a database
   * that is down, instead of being tried once here and lost.
   */
  @OnWorkerEvent('failed')
  async onFailed(job: Job | undefined, err: Error): Promise<void> {
    if (!job) return;
    if (job.name === 'job-failed') {
      this.logger.error(
        `job ${(job.data as JobFailedPayload).jobId}: refund/job.failed not done: ${err.message}`,
      );
      return;
    }
    if (job.name !== 'process-csv') return;
    const final =
      err instanceof UnrecoverableError ||
      err.name === 'UnrecoverableError' ||
      job.attemptsMade >= (job.opts.attempts ?? 1);
    if (!final) return;
    await this.observe(job, 'failed');
    const cancelled = err instanceof JobCancelledError || err.message === new JobCancelledError().message;
    const payload: JobFailedPayload = {
      jobId: job.id as string,
      cancelled,
      error: cancelled
        ? null
        : { code: err instanceof JobFailedError ? err.code : 'JOB_FAILED', message: err.message },
    };
    await this.queue
      .add('job-failed', payload, {
        jobId: jobIdFrom(QUEUES.csvJobs, `job-failed:${job.id}`),
        attempts: 5,
        backoff: { type: 'exponential', delay: 5000, jitter: 0.5 },
        // Not kept once done: the queue's completed jobs stay the users' jobs.
        removeOnComplete: true,
        removeOnFail: JOB_RETENTION.removeOnFail,
      })
      .catch((e: Error) => this.logger.error(`job ${job.id}: could not queue its refund: ${e.message}`));
  }

  /** Gives back the failed job's reservation (once: usage_history.job_id), then tells webhooks and the batch. */
  private async finishFailed(job: Job<JobFailedPayload>): Promise<{ refunded: boolean }> {
    const { jobId, cancelled, error } = job.data;
    const csv = (await Job.fromId(this.queue, jobId)) as Job<ProcessCsvPayload> | undefined;
    if (!csv) return { refunded: false };
    const p = csv.data;
    await this.quota.release(jobId, p.userId, p.maxRows, p.dataFilename, jobTeamOf(p));
    if (p.history)
      await this.runHistory.failJob(jobId, cancelled ? 'JOB_CANCELLED' : (error?.code ?? 'JOB_FAILED'));
    const progress = (typeof csv.progress === 'object' ? csv.progress : null) as JobProgress | null;
    await this.webhooks.dispatch(jobTeamOf(p), cancelled ? 'job.cancelled' : 'job.failed', jobId, {
      ...jobEventBase(jobId, p, cancelled ? 'cancelled' : 'failed'),
      rowsRead: progress?.rowsDone ?? 0,
      warningCount: progress?.warnings ?? 0,
      error,
    });
    await this.finishBatchFile(jobId, p, {
      state: cancelled ? 'cancelled' : 'failed',
      rowsWritten: 0,
      warningCount: progress?.warnings ?? 0,
    });
    return { refunded: true };
  }

  /**
   * What an attempt's error becomes: an outage puts the job back to wait (DelayedError, no attempt used) or,
   * past its budget, fails it with a message that names no host; an unexpected error is logged here and
   * reaches the client as a generic message (BullMQ still retries it up to the job's attempts).
   */
  private async attemptError(
    job: Job,
    token: string | undefined,
    err: unknown,
    budgetMs: number,
  ): Promise<Error> {
    if (err instanceof UnrecoverableError || err instanceof DelayedError) return err;
    if (isInfrastructureError(err) || (await this.databaseDown())) {
      try {
        return await deferForOutage(job, token, { ...this.config.outage, budgetMs });
      } catch (e) {
        if (!(e instanceof OutageBudgetExhaustedError)) return e as Error;
        this.logger.error(
          `job ${job.id}: gave up after waiting out an outage for ${e.waitedMs} ms: ${String(err)}`,
        );
        return new JobFailedError('SERVICE_UNAVAILABLE', OUTAGE_MESSAGE);
      }
    }
    this.logger.error(
      `job ${job.id} attempt ${job.attemptsMade + 1} failed: ${(err as Error)?.stack ?? String(err)}`,
    );
    return new Error(INTERNAL_MESSAGE);
  }

  /**
   * For errors that carry no code (pg's "connection terminated" has none): the database not answering a
   * `SELECT 1` within 3 s right now makes it an outage.
   */
  private async databaseDown(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.ds.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), 3000);
        }),
      ]);
      return false;
    } catch {
      return true;
    } finally {
      clearTimeout(timer);
    }
  }

  /** One file of a bulk upload has ended: the last one raises `batch.completed` (once). */
  private async finishBatchFile(
    jobId: string,
    p: ProcessCsvPayload,
    outcome: Pick<BatchEventFile, 'state' | 'rowsWritten' | 'warningCount'>,
  ): Promise<void> {
    if (!p.batchId) return;
    const done = await this.batches.finishJob(
      p.batchId,
      { jobId, dataFilename: p.dataFilename, ...outcome },
      this.config.appUrl,
    );
    if (done) await this.webhooks.dispatch(done.userId, 'batch.completed', p.batchId, done.data);
  }

  /** A job of this queue whose lock lapsed: counted for operators (queue_stalled_jobs_total). */
  @OnWorkerEvent('stalled')
  onStalled(jobId: string): void {
    this.stalled.seen(this.worker.name, jobId);
  }

  async process(job: Job, token?: string): Promise<ProcessCsvResult | { refunded: boolean }> {
    if (job.name === 'job-failed') {
      try {
        return await this.finishFailed(job as Job<JobFailedPayload>);
      } catch (err) {
        throw await this.attemptError(job, token, err, FINISH_FAILED_BUDGET_MS);
      }
    }
    if (job.name !== 'process-csv') throw new UnrecoverableError(`No handler for csv job "${job.name}"`);
    try {
      return await this.run(job as Job<ProcessCsvPayload>);
    } catch (err) {
      throw await this.attemptError(job, token, err, this.config.outage.budgetMs);
    }
  }

  private async run(job: Job<ProcessCsvPayload>): Promise<ProcessCsvResult> {
    const p = job.data;
    const jobId = job.id as string;
    if (await this.index.isCancelled(jobId)) throw new JobCancelledError();

    let input;
    try {
      input = await this.store.openRead(p.dataFileId, jobTeamOf(p));
    } catch (err) {
      if (err instanceof BlobNotFoundError)
        throw new JobFailedError(
          'DATA_FILE_EXPIRED',
          'The data file expired before the job ran. Upload it again.',
        );
      throw err;
    }

    const resultId = resultIdFor(jobId);
    const writer = this.store.createWriter('result', jobTeamOf(p), outputName(p.dataFilename), resultId);
    let lastReport = 0;
    let cancelled = false;
    let checking = false;
    const report = (rowsDone: number, warnings: number, force = false) => {
      const now = Date.now();
      if (!force && now - lastReport < PROGRESS_INTERVAL_MS) return;
      lastReport = now;
      const total = Math.max(1, Math.min(p.totalRows, p.maxRows));
      const progress: JobProgress = {
        percent: Math.min(99, Math.floor((rowsDone / total) * 100)),
        rowsDone,
        warnings,
      };
      void job.updateProgress(progress).catch(() => undefined);
      if (!checking) {
        checking = true;
        // Redis restarting: no answer this time (a rejection left unhandled here would end the process).
        void this.index
          .isCancelled(jobId)
          .then((c) => {
            cancelled = c;
          })
          .catch(() => undefined)
          .finally(() => {
            checking = false;
          });
      }
    };

    // A corrected run (POST /api/jobs/:id/rerun) applies the review session's patch while streaming.
    const patch =
      p.applyPatch && p.reviewId ? rowPatchOf(await loadPatch(this.store, p.reviewId, jobTeamOf(p))) : null;
    // A workbook's sheet arrives as CSV text; the store is opened again for each of its passes.
    const source =
      p.source?.format === 'xlsx'
        ? sourceChunks(async () => (await this.store.openRead(p.dataFileId, jobTeamOf(p))).stream, p.source)
        : input.stream;
    if (source !== input.stream) input.stream.destroy();
    // A saved mapping's run: recorded once per job, its rows checked against the mapping's earlier runs.
    let started: StartedRun | null = null;
    if (p.history && p.mappingId) {
      try {
        started = await this.runHistory.start({
          mappingId: p.mappingId,
          teamId: jobTeamOf(p),
          userId: p.userId,
          source: p.history.source,
          duplicates: p.history.duplicates,
          keyColumns: p.history.keyColumns,
          dataFilename: p.dataFilename,
          jobId,
          batchId: p.batchId ?? null,
          // A corrected rerun (review) replaces the run it corrects.
          ...(p.applyPatch
            ? { supersedes: { runId: p.history.supersedes ?? null, jobId: p.reviewId ?? null } }
            : {}),
        });
      } catch (err) {
        input.stream.destroy();
        // The mapping was deleted after the job was queued: the run goes unrecorded.
        if ((err as { code?: string }).code !== '23503') throw err;
      }
    }
    const { output, stats } = applyMapping(source, p.templateHeaders, p.mappings as MappingPair[], {
      ...(p.options ?? {}),
      ...(p.templateRules ? { templateRules: p.templateRules } : {}),
      ...(patch ? { patch } : {}),
      // Every problem up to ISSUES_MAX is kept for the review grid (GET /api/jobs/:id/issues).
      maxWarnings: ISSUES_MAX,
      maxRows: p.maxRows,
      // A second thread pays off only on big files: it costs ~40 ms and ~10 MB to start.
      threads: input.meta.size >= PARALLEL_MIN_BYTES ? this.config.engineThreads : 1,
      onProgress: ({ rowsIn }) => report(rowsIn, 0),
      ...(started ? { history: started.history } : {}),
    });
    stats.catch(() => undefined);

    try {
      for await (const chunk of output) {
        if (cancelled) {
          output.destroy();
          throw new JobCancelledError();
        }
        // Past the shutdown grace period: stop here without finishing or failing the attempt; the
        // process exits, the job's lock lapses and another worker runs it from the start.
        if (isForcedShutdown()) await new Promise<never>(() => undefined);
        await writer.write(chunk as Buffer);
      }
      const s = await stats;
      const totals = runTotals(s, p.totalRows, p.limitType ?? null);
      if (started) totals.alreadyExportedFrom = started.alreadyExportedFrom();
      // Warning samples quote cell values: they live with the result (same TTL), never in the job record,
      // which Redis keeps for a day.
      const result = await writer.commit({ jobId, rows: s.rowsOut, warnings: s.warnings.slice(0, 100) });
      await saveIssues(this.store, jobId, jobTeamOf(p), s.warnings, {
        total: s.warningCount,
        byRule: s.warningsByRule,
        truncated: s.warningCount > s.warnings.length,
      });
      const recorded = await this.quota.commit({
        jobId,
        userId: p.userId,
        teamId: jobTeamOf(p),
        rowsProcessed: s.rowsOut,
        reservedRows: p.maxRows,
        fileSizeBytes: p.fileSizeBytes,
        filename: p.dataFilename,
      });
      if (!recorded) this.logger.warn(`job ${jobId} ran again; usage was already recorded`);
      // After the result and usage are committed; a second run of the job sends nothing new (one
      // delivery job id and one message id per endpoint, event and job).
      const expires = Date.parse(result.createdAt) + this.config.blobTtlSeconds * 1000;
      if (started) {
        await this.runHistory.complete(
          started.runId,
          started.mappingId,
          started.history.fresh,
          {
            rowsRead: totals.rowsRead,
            rowsWritten: totals.rowsWritten,
            rowsAlreadyExported: totals.rowsAlreadyExported ?? 0,
            rowsSkipped: totals.rowsSkipped,
            controlTotals: s.controlTotals,
            resultKey: resultId,
            resultExpiresAt: new Date(expires),
          },
          started.supersedes,
        );
      }
      await this.webhooks.dispatch(jobTeamOf(p), 'job.completed', jobId, {
        ...jobEventBase(jobId, p, 'completed'),
        rowsRead: s.rowsIn,
        rowsWritten: s.rowsOut,
        warningCount: s.warningCount,
        controlTotals: s.controlTotals,
        totals,
        resultUrl: `${this.config.appUrl}/api/jobs/${encodeURIComponent(jobId)}/result`,
        resultExpiresAt: new Date(expires).toISOString(),
      });
      await this.finishBatchFile(jobId, p, {
        state: 'completed',
        rowsWritten: s.rowsOut,
        warningCount: s.warningCount,
      });
      await job.updateProgress({
        percent: 100,
        rowsDone: s.rowsOut,
        warnings: s.warningCount,
      } satisfies JobProgress);
      return {
        rowsProcessed: s.rowsOut,
        totalRows: p.totalRows,
        truncated: s.truncated,
        warningsCount: s.warningCount,
        controlTotals: s.controlTotals,
        totals,
        ...(p.output ? { output: p.output } : {}),
        warningsByRule: s.warningsByRule,
        ...(s.corrections ? { corrections: s.corrections } : {}),
        resultId,
        filename: outputName(p.dataFilename),
        bytes: writer.size,
      };
    } catch (err) {
      await writer.abort().catch(() => undefined);
      if (isCsvEngineError(err)) {
        // A saved mapping on a file without one of its columns: the source changed, never a blank column.
        const changed = p.mappingId && /is not a column of the data file/.test(err.message);
        const code = changed ? 'SOURCE_CHANGED' : err.code;
        if (started) await this.runHistory.fail(started.runId, code).catch(() => undefined);
        throw new JobFailedError(code, err.message);
      }
      throw err;
    }
  }
}
