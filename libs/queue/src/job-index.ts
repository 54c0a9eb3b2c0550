import type { RedisClient } from './redis';

// Per-user index of background jobs (BullMQ has no owner index) and the cancel flag a worker polls.

const INDEX_TTL_SECONDS = 7 * 24 * 3600;

export class UserJobIndex {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  private key(userId: string): string {
    return `${this.prefix}user-jobs:${userId}`;
  }
  cancelKey(jobId: string): string {
    return `${this.prefix}job-cancel:${jobId}`;
  }

  async add(userId: string, jobId: string, at = Date.now()): Promise<void> {
    const key = this.key(userId);
    await this.redis
      .multi()
      .zadd(key, at, jobId)
      .zremrangebyscore(key, 0, at - INDEX_TTL_SECONDS * 1000)
      .expire(key, INDEX_TTL_SECONDS)
      .exec();
  }

  /** Most recent first. */
  list(userId: string, limit = 20): Promise<string[]> {
    return this.redis.zrevrange(this.key(userId), 0, limit - 1);
  }

  async removeUser(userId: string): Promise<void> {
    await this.redis.del(this.key(userId));
  }

  async requestCancel(jobId: string): Promise<void> {
    await this.redis.set(this.cancelKey(jobId), '1', 'EX', 24 * 3600);
  }

  async isCancelled(jobId: string): Promise<boolean> {
    return (await this.redis.exists(this.cancelKey(jobId))) === 1;
  }
}

/** Deterministic result blob id for a job, so a retried job overwrites rather than duplicates. */
export function resultIdFor(jobId: string): string {
  return `result-${jobId}`;
}
