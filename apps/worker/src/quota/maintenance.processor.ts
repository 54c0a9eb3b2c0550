import { InjectQueue, Processor, WorkerHost, OnWorkerEvent } from '@nestjs/bullmq';
import { StalledJobsService } from '../metrics/stalled-jobs.service';
import { Logger } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { WorkerConfig } from '../config/worker.config';
import { BlobStore, QUEUES, type QuotaResetResult } from '@csv-mapper/queue';
import { BillingReconciliationService } from '../billing/billing-reconciliation.service';
import { QuotaService } from './quota.service';
import { QuotaLedger } from '@csv-mapper/db';

/** Scheduled housekeeping jobs: the monthly quota reset, the hourly cleanup, the daily billing reconciliation. */
@Processor(QUEUES.maintenance)
export class MaintenanceProcessor extends WorkerHost {
  private readonly logger = new Logger(MaintenanceProcessor.name);

  constructor(
    private readonly stalled: StalledJobsService,
    private readonly quota: QuotaService,
    private readonly ledger: QuotaLedger,
    private readonly config: WorkerConfig,
    private readonly billing: BillingReconciliationService,
    private readonly blobs: BlobStore,
    @InjectQueue(QUEUES.csvJobs) private readonly csvJobs: Queue,
    @InjectQueue(QUEUES.webhooks) private readonly webhooks: Queue,
    @InjectQueue(QUEUES.billing) private readonly billingEvents: Queue,
  ) {
    super();
  }

  /**
   * Finished jobs past their retention. BullMQ's removeOnComplete/removeOnFail ages are applied only
   * when a later job finishes, so the last jobs before a quiet period would otherwise stay for good.
   */
  private async trimFinishedJobs(): Promise<number> {
    let removed = 0;
    for (const q of [this.csvJobs, this.webhooks, this.billingEvents]) {
      removed += (await q.clean(this.config.keepCompletedMs, 100_000, 'completed')).length;
      removed += (await q.clean(this.config.keepFailedMs, 100_000, 'failed')).length;
    }
    return removed;
  }

  /** A job of this queue whose lock lapsed: counted for operators (queue_stalled_jobs_total). */
  @OnWorkerEvent('stalled')
  onStalled(jobId: string): void {
    this.stalled.seen(this.worker.name, jobId);
  }

  async process(job: Job): Promise<QuotaResetResult | { ok: true } | { repaired: number }> {
    switch (job.name) {
      case 'monthly-quota-reset': {
        await job.updateProgress({ percent: 10, rowsDone: 0, warnings: 0 });
        const usersReset = await this.ledger.resetMonth();
        await job.updateProgress({ percent: 100, rowsDone: usersReset, warnings: 0 });
        this.logger.log(`monthly quota reset: ${usersReset} users`);
        return { usersReset };
      }
      case 'cleanup': {
        const removed = await this.quota.cleanup();
        const jobs = await this.trimFinishedJobs();
        // Redis expires the memory driver's files itself; object storage needs deleting.
        const files = await this.blobs.removeExpired();
        this.logger.log(
          `cleanup: ${removed.tokens} expired reset tokens, ${removed.sessions} expired sessions, ` +
            `${removed.deliveries} webhook attempts past 30 days, ${jobs} finished jobs, ${files} expired stored files`,
        );
        return { ok: true };
      }
      case 'billing-reconcile':
        return this.billing.run();
      default:
        throw new Error(`No handler for maintenance job "${job.name}"`);
    }
  }
}
