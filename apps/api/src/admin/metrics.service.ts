import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import {
  JobDurationMetrics,
  queueBacklog,
  QUEUES,
  StalledJobCounter,
  type RedisClient,
} from '@csv-mapper/queue';
import { ApiConfig } from '../config/api.config';
import { REDIS } from '../redis/redis.module';

/**
 * Prometheus metrics: queue depths, the oldest waiting job's age and stalled jobs per queue (signals an
 * operator alerts on), job durations by outcome (histogram), HTTP latency.
 */
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
    @InjectQueue(QUEUES.billing) billing: Queue,
    @Inject(REDIS) redis: RedisClient,
    config: ApiConfig,
  ) {
    collectDefaultMetrics({ register: this.registry });
    const queues = [csvJobs, webhooks, maintenance, billing];
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
      name: 'queue_oldest_waiting_job_age_seconds',
      help: 'Seconds since the oldest job still waiting in the queue was added (0 when none waits)',
      labelNames: ['queue'],
      registers: [this.registry],
      async collect() {
        const now = Date.now();
        for (const q of queues) {
          this.set({ queue: q.name }, (await queueBacklog(q, now)).oldestWaitingAgeSeconds);
        }
      },
    });
    // Filled by the workers in Redis (libs/queue job-metrics): the same totals from every api instance.
    const stalled = new StalledJobCounter(redis, config.redisPrefix);
    new RedisTotalsCounter(this.registry, async () => {
      const totals = await stalled.totals();
      return queues.map((q) => ({ labels: { queue: q.name }, value: totals[q.name] ?? 0 }));
    });
    const durations = new JobDurationMetrics(redis, config.redisPrefix);
    new RedisHistogram(this.registry, async () => {
      const name = RedisHistogram.metricName;
      return (await durations.snapshot()).flatMap((h) => [
        ...h.buckets.map((b) => ({
          metricName: `${name}_bucket`,
          labels: { outcome: h.outcome, le: b.le },
          value: b.count,
        })),
        { metricName: `${name}_sum`, labels: { outcome: h.outcome }, value: h.sum },
        { metricName: `${name}_count`, labels: { outcome: h.outcome }, value: h.count },
      ]);
    });
  }
}

// Totals the workers keep in Redis (libs/queue job-metrics), read when scraped: the same from every api
// instance. prom-client's own classes, with their values replaced by the Redis totals.

type CounterValues = Awaited<ReturnType<Counter<'queue'>['get']>>['values'];
type HistogramValues = Awaited<ReturnType<Histogram<'outcome' | 'le'>['get']>>['values'];

/** Jobs whose lock lapsed before they finished, per queue (a counter summed across instances). */
class RedisTotalsCounter extends Counter<'queue'> {
  constructor(
    registry: Registry,
    private readonly read: () => Promise<CounterValues>,
  ) {
    super({
      name: 'queue_stalled_jobs_total',
      help: 'Jobs whose lock lapsed before they finished (worker died or blocked), per queue',
      labelNames: ['queue'],
      registers: [registry],
    });
  }

  override async get(): ReturnType<Counter<'queue'>['get']> {
    return { ...(await super.get()), values: await this.read() };
  }
}

/** Processing time of background CSV jobs by outcome: the workers' buckets, sums and counts. */
class RedisHistogram extends Histogram<'outcome' | 'le'> {
  static readonly metricName = 'csv_job_duration_seconds';
  static readonly help = 'Processing time of background CSV jobs (the final attempt) by outcome';
  /** An unregistered, empty twin: its get() gives the metric's own fields (name, help, type, aggregator). */
  private readonly shape = new Histogram({
    name: RedisHistogram.metricName,
    help: RedisHistogram.help,
    registers: [],
  });

  constructor(
    registry: Registry,
    private readonly read: () => Promise<HistogramValues>,
  ) {
    super({ name: RedisHistogram.metricName, help: RedisHistogram.help, registers: [registry] });
  }

  override async get(): ReturnType<Histogram<'outcome' | 'le'>['get']> {
    return { ...(await this.shape.get()), values: await this.read() };
  }

  /** What the registry's text exposition reads for a histogram (its own one would not call get()). */
  getForPromString(): ReturnType<Histogram<'outcome' | 'le'>['get']> {
    return this.get();
  }
}
