import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { QUEUES } from '@csv-mapper/queue';

/** Prometheus metrics: queue depths and outcomes, recent job durations, HTTP latency. */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status class',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor(
    @InjectQueue(QUEUES.csvJobs) csvJobs: Queue,
    @InjectQueue(QUEUES.webhooks) webhooks: Queue,
    @InjectQueue(QUEUES.maintenance) maintenance: Queue,
  ) {
    collectDefaultMetrics({ register: this.registry });
    const queues = [csvJobs, webhooks, maintenance];
    new Gauge({
      name: 'queue_jobs',
      help: 'Jobs per queue and state (completed/failed within their retention window)',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        for (const q of queues) {
          const counts = await q.getJobCounts(
            'waiting',
            'active',
            'delayed',
            'prioritized',
            'completed',
            'failed',
          );
          for (const [state, n] of Object.entries(counts)) this.set({ queue: q.name, state }, n);
        }
      },
    });
    new Gauge({
      name: 'csv_job_duration_seconds_recent',
      help: 'Mean and max processing time of the last 50 completed csv jobs',
      labelNames: ['stat'],
      registers: [this.registry],
      async collect() {
        const jobs = await csvJobs.getJobs(['completed'], 0, 49);
        const d = jobs
          .filter((j) => j.finishedOn && j.processedOn)
          .map((j) => ((j.finishedOn as number) - (j.processedOn as number)) / 1000);
        this.set({ stat: 'mean' }, d.length ? d.reduce((a, b) => a + b, 0) / d.length : 0);
        this.set({ stat: 'max' }, d.length ? Math.max(...d) : 0);
      },
    });
  }
}
