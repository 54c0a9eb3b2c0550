import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { JOB_RETENTION, QUEUES } from '@csv-mapper/queue';
import { WorkerConfig } from '../config/worker.config';

/**
 * Registers the repeatable maintenance jobs in Redis. BullMQ job schedulers are keyed by id, so
 * several workers registering the same scheduler still yield one job per tick.
 */
@Injectable()
export class QuotaSchedulerService implements OnApplicationBootstrap {
  private readonly logger = new Logger(QuotaSchedulerService.name);

  constructor(
    @InjectQueue(QUEUES.maintenance) private readonly queue: Queue,
    private readonly config: WorkerConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.enableCron) return;
    await this.queue.upsertJobScheduler(
      'monthly-quota-reset',
      { pattern: '0 0 1 * *', tz: 'UTC' },
      { name: 'monthly-quota-reset', data: {}, opts: { ...JOB_RETENTION } },
    );
    await this.queue.upsertJobScheduler(
      'hourly-cleanup',
      { pattern: '17 * * * *', tz: 'UTC' },
      { name: 'cleanup', data: {}, opts: { ...JOB_RETENTION } },
    );
    await this.queue.upsertJobScheduler(
      'daily-billing-reconcile',
      { pattern: '41 3 * * *', tz: 'UTC' },
      { name: 'billing-reconcile', data: {}, opts: { ...JOB_RETENTION } },
    );
    this.logger.log(
      'scheduled monthly-quota-reset at 00:00 UTC on the 1st, cleanup hourly, billing-reconcile daily at 03:41 UTC',
    );
  }
}
