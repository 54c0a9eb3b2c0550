import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { QUEUES, type QuotaResetResult } from '@csv-mapper/queue';
import { QuotaService } from './quota.service';

/** Scheduled housekeeping jobs: the monthly quota reset (and later token/blob cleanup). */
@Processor(QUEUES.maintenance)
export class MaintenanceProcessor extends WorkerHost {
  private readonly logger = new Logger(MaintenanceProcessor.name);

  constructor(private readonly quota: QuotaService) {
    super();
  }

  async process(job: Job): Promise<QuotaResetResult | { ok: true }> {
    switch (job.name) {
      case 'monthly-quota-reset': {
        await job.updateProgress({ percent: 10, rowsDone: 0, warnings: 0 });
        const usersReset = await this.quota.resetMonthlyUsage();
        await job.updateProgress({ percent: 100, rowsDone: usersReset, warnings: 0 });
        this.logger.log(`monthly quota reset: ${usersReset} users`);
        return { usersReset };
      }
      case 'cleanup': {
        const removed = await this.quota.cleanup();
        this.logger.log(
          `cleanup: ${removed.tokens} expired reset tokens, ${removed.sessions} expired sessions`,
        );
        return { ok: true };
      }
      default:
        throw new Error(`No handler for maintenance job "${job.name}"`);
    }
  }
}
