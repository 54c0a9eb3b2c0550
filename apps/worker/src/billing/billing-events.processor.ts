import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { StalledJobsService } from '../metrics/stalled-jobs.service';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { BillingEventApplier, type ApplyOutcome } from '@csv-mapper/billing';
import { QUEUES, type BillingEventPayload } from '@csv-mapper/queue';

/**
 * Applies the payment provider's events the api stored (billing/apply-event). A failure throws, so
 * BullMQ retries with backoff (attempts set by the api); the last failure is logged at error level.
 */
@Processor(QUEUES.billing)
export class BillingEventsProcessor extends WorkerHost {
  private readonly logger = new Logger('BillingEvents');

  constructor(
    private readonly stalled: StalledJobsService,
    private readonly applier: BillingEventApplier,
  ) {
    super();
  }

  /** A job of this queue whose lock lapsed: counted for operators (queue_stalled_jobs_total). */
  @OnWorkerEvent('stalled')
  onStalled(jobId: string): void {
    this.stalled.seen(this.worker.name, jobId);
  }

  async process(job: Job<BillingEventPayload>): Promise<{ outcome: ApplyOutcome }> {
    if (job.name !== 'apply-event') throw new Error(`No handler for billing job "${job.name}"`);
    const outcome = await this.applier.apply(job.data.eventId);
    if (outcome === 'unknown-event')
      this.logger.warn(`billing event ${job.data.eventId} is not stored; skipped`);
    else this.logger.log(`billing event ${job.data.eventId}: ${outcome} (attempt ${job.attemptsMade + 1})`);
    return { outcome };
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job<BillingEventPayload> | undefined, err: Error): void {
    if (!job) return;
    const final = job.attemptsMade >= (job.opts.attempts ?? 1);
    if (final) {
      this.logger.error(
        { event: job.data.eventId, attempts: job.attemptsMade, err: err.message },
        `billing event ${job.data.eventId} failed for good after ${job.attemptsMade} attempts; the daily reconciliation will repair the subscription`,
      );
    } else {
      this.logger.warn(
        `billing event ${job.data.eventId} failed (attempt ${job.attemptsMade}): ${err.message}; retrying`,
      );
    }
  }
}
