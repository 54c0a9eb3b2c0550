import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { WorkerHost } from '@nestjs/bullmq';
import { StalledJobCounter } from '@csv-mapper/queue';

/**
 * Counts stalled jobs (a lock that lapsed: the worker died, or blocked its event loop longer than the lock)
 * into the shared Redis counter the api serves as queue_stalled_jobs_total, so an operator can alert.
 */
@Injectable()
export class StalledJobsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('StalledJobs');

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly counter: StalledJobCounter,
  ) {}

  onApplicationBootstrap(): void {
    const workers = this.discovery
      .getProviders()
      .map((w) => w.instance as unknown)
      .filter((i): i is WorkerHost => i instanceof WorkerHost)
      .map((host) => host.worker);
    for (const worker of workers) {
      worker.on('stalled', (jobId) => {
        this.logger.warn(`job ${jobId} in ${worker.name} stalled (its lock lapsed); it runs again`);
        this.counter.record(worker.name).catch((err: Error) => {
          this.logger.warn(`could not count a stalled job: ${err.message}`);
        });
      });
    }
  }
}
