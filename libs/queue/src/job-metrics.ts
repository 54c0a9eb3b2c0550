import type { Redis } from 'ioredis';

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
    private readonly redis: Redis,
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
