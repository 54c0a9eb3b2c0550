import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { StalledJobsService } from '../metrics/stalled-jobs.service';
import { Logger } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
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
  EphemeralStore,
  JobDurationMetrics,
  jobEventBase,
  QUEUES,
  resultIdFor,
  UserJobIndex,
  type BatchEventFile,
  type JobProgress,
  type ProcessCsvPayload,
  type ProcessCsvResult,
} from '@csv-mapper/queue';
import { WorkerConfig } from '../config/worker.config';
import { isForcedShutdown } from '../shutdown';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.service';
import { QuotaLedger } from '@csv-mapper/db';

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

  constructor(
    private readonly store: EphemeralStore,
    private readonly quota: QuotaLedger,
    private readonly index: UserJobIndex,
    private readonly webhooks: WebhookDispatcher,
    private readonly metrics: JobDurationMetrics,
    private readonly config: WorkerConfig,
    private readonly stalled: StalledJobsService,
    private readonly batches: BatchStore,
  ) {
    super();
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

  /** Final failure (bad input, cancel, or retries exhausted): give back the reservation, tell webhooks. */
  @OnWorkerEvent('failed')
  async onFailed(job: Job<ProcessCsvPayload> | undefined, err: Error): Promise<void> {
    if (!job || job.name !== 'process-csv') return;
    const final =
      err instanceof UnrecoverableError ||
      err.name === 'UnrecoverableError' ||
      job.attemptsMade >= (job.opts.attempts ?? 1);
    if (!final) return;
    await this.observe(job, 'failed');
    const p = job.data;
    await this.quota.release(job.id as string, p.userId, p.maxRows, p.dataFilename).catch(() => undefined);
    const cancelled = err instanceof JobCancelledError || err.message === new JobCancelledError().message;
    const progress = (typeof job.progress === 'object' ? job.progress : null) as JobProgress | null;
    const event = cancelled ? 'job.cancelled' : 'job.failed';
    await this.webhooks
      .dispatch(p.userId, event, job.id as string, {
        ...jobEventBase(job.id as string, p, cancelled ? 'cancelled' : 'failed'),
        rowsRead: progress?.rowsDone ?? 0,
        warningCount: progress?.warnings ?? 0,
        error: cancelled
          ? null
          : { code: err instanceof JobFailedError ? err.code : 'JOB_FAILED', message: err.message },
      })
      .catch((e: Error) => this.logger.warn(`webhook dispatch failed: ${e.message}`));
    await this.finishBatchFile(job.id as string, p, {
      state: cancelled ? 'cancelled' : 'failed',
      rowsWritten: 0,
      warningCount: progress?.warnings ?? 0,
    }).catch((e: Error) => this.logger.warn(`batch bookkeeping failed: ${e.message}`));
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

  async process(job: Job<ProcessCsvPayload>): Promise<ProcessCsvResult> {
    if (job.name !== 'process-csv') throw new UnrecoverableError(`No handler for csv job "${job.name}"`);
    const p = job.data;
    const jobId = job.id as string;
    if (await this.index.isCancelled(jobId)) throw new JobCancelledError();

    let input;
    try {
      input = await this.store.openRead(p.dataFileId, p.userId);
    } catch (err) {
      if (err instanceof BlobNotFoundError)
        throw new JobFailedError(
          'DATA_FILE_EXPIRED',
          'The data file expired before the job ran. Upload it again.',
        );
      throw err;
    }

    const resultId = resultIdFor(jobId);
    const writer = this.store.createWriter('result', p.userId, outputName(p.dataFilename), resultId);
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
        void this.index.isCancelled(jobId).then((c) => {
          cancelled = c;
          checking = false;
        });
      }
    };

    // A workbook's sheet arrives as CSV text; the store is opened again for each of its passes.
    const source =
      p.source?.format === 'xlsx'
        ? sourceChunks(async () => (await this.store.openRead(p.dataFileId, p.userId)).stream, p.source)
        : input.stream;
    if (source !== input.stream) input.stream.destroy();
    const { output, stats } = applyMapping(source, p.templateHeaders, p.mappings as MappingPair[], {
      ...(p.options ?? {}),
      maxRows: p.maxRows,
      // A second thread pays off only on big files: it costs ~40 ms and ~10 MB to start.
      threads: input.meta.size >= PARALLEL_MIN_BYTES ? this.config.engineThreads : 1,
      onProgress: ({ rowsIn }) => report(rowsIn, 0),
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
      // Warning samples quote cell values: they live with the result (same TTL), never in the job record,
      // which Redis keeps for a day.
      const result = await writer.commit({ jobId, rows: s.rowsOut, warnings: s.warnings.slice(0, 100) });
      const recorded = await this.quota.commit({
        jobId,
        userId: p.userId,
        rowsProcessed: s.rowsOut,
        reservedRows: p.maxRows,
        fileSizeBytes: p.fileSizeBytes,
        filename: p.dataFilename,
      });
      if (!recorded) this.logger.warn(`job ${jobId} ran again; usage was already recorded`);
      // After the result and usage are committed; a second run of the job sends nothing new (one
      // delivery job id and one message id per endpoint, event and job).
      const expires = Date.parse(result.createdAt) + this.config.blobTtlSeconds * 1000;
      await this.webhooks.dispatch(p.userId, 'job.completed', jobId, {
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
        resultId,
        filename: outputName(p.dataFilename),
        bytes: writer.size,
      };
    } catch (err) {
      await writer.abort().catch(() => undefined);
      if (isCsvEngineError(err)) throw new JobFailedError(err.code, err.message);
      throw err;
    }
  }
}
