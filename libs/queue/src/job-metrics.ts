import type { Queue } from 'bullmq';
import type { RedisClient } from './redis';

// Background-job durations as a cluster-wide Prometheus histogram: every worker adds its observations
// to one Redis hash (cumulative buckets, sum, count per outcome), every api instance reads the same
// totals, so scrapes agree whichever api answers and survive restarts of either.

export const JOB_DURATION_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600] as const;
export type JobOutcome = 'completed' | 'failed';

export interface HistogramSnapshot {
  outcome: JobOutcome;
  /** Cumulative counts per upper bound (le), '+Inf' last. */
  buckets: Array<{ le: string; count: number }>;
  sum: number;
  count: number;
}

export class JobDurationMetrics {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  private get key(): string {
    return `${this.prefix}metrics:csv-job-duration`;
  }

  async observe(outcome: JobOutcome, seconds: number): Promise<void> {
    const tx = this.redis.multi();
    for (const le of JOB_DURATION_BUCKETS) if (seconds <= le) tx.hincrby(this.key, `${outcome}|${le}`, 1);
    tx.hincrby(this.key, `${outcome}|+Inf`, 1)
      .hincrbyfloat(this.key, `${outcome}|sum`, seconds)
      .hincrby(this.key, `${outcome}|count`, 1);
    await tx.exec();
  }

  async snapshot(): Promise<HistogramSnapshot[]> {
    const raw = await this.redis.hgetall(this.key);
    const n = (f: string) => Number(raw[f] ?? 0);
    return (['completed', 'failed'] as const).map((outcome) => ({
      outcome,
      buckets: [...JOB_DURATION_BUCKETS.map(String), '+Inf'].map((le) => ({
        le,
        count: n(`${outcome}|${le}`),
      })),
      sum: n(`${outcome}|sum`),
      count: n(`${outcome}|count`),
    }));
  }
}

/**
 * Stalled jobs per queue, cluster-wide: a worker counts each job whose lock lapsed (its worker died or
 * blocked the event loop past the lock) into one Redis hash; every api instance serves the same totals.
 */
export class StalledJobCounter {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  private get key(): string {
    return `${this.prefix}metrics:stalled-jobs`;
  }

  async record(queue: string): Promise<void> {
    await this.redis.hincrby(this.key, queue, 1);
  }

  /** Totals per queue (queues with none are absent). */
  async totals(): Promise<Record<string, number>> {
    const raw = await this.redis.hgetall(this.key);
    return Object.fromEntries(Object.entries(raw).map(([q, n]) => [q, Number(n)]));
  }
}

/** A queue's backlog as an operator reads it (health detail and metrics). */
export interface QueueBacklog {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  /** Seconds since the oldest job still waiting was added; 0 when none waits. */
  oldestWaitingAgeSeconds: number;
}

export async function queueBacklog(queue: Queue, now: number = Date.now()): Promise<QueueBacklog> {
  const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
  // The wait list is pushed on the left: ascending order puts the oldest job first.
  const [oldest] = counts.waiting > 0 ? await queue.getJobs(['waiting'], 0, 0, true) : [];
  return {
    waiting: counts.waiting ?? 0,
    active: counts.active ?? 0,
    delayed: counts.delayed ?? 0,
    failed: counts.failed ?? 0,
    oldestWaitingAgeSeconds: oldest?.timestamp ? Math.max(0, (now - oldest.timestamp) / 1000) : 0,
  };
}
