import { Injectable, Logger } from '@nestjs/common';
import { StalledJobCounter } from '@csv-mapper/queue';

/**
 * Counts stalled jobs (a lock that lapsed: the worker died, or blocked its event loop longer than the lock)
 * into the shared Redis counter the api serves as queue_stalled_jobs_total, so an operator can alert.
 * Every processor reports its worker's 'stalled' events here through @OnWorkerEvent, which is attached when
 * the worker is created, before it runs its first stalled-job check (the check right after a restart is
 * the one most likely to find some).
 */
@Injectable()
export class StalledJobsService {
  private readonly logger = new Logger('StalledJobs');

  constructor(private readonly counter: StalledJobCounter) {}

  seen(queue: string, jobId: string): void {
    this.logger.warn(`job ${jobId} in ${queue} stalled (its lock lapsed); it runs again`);
    this.counter.record(queue).catch((err: Error) => {
      this.logger.warn(`could not count a stalled job: ${err.message}`);
    });
  }
}
