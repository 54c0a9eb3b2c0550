import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { Redis } from 'ioredis';
import { AppError } from '../common/app-error';
import { ApiConfig } from '../config/api.config';
import { REDIS } from '../redis/redis.module';

/** Fixed-window counters in Redis, so limits hold across api instances. */
@Injectable()
export class ThrottleService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: ApiConfig,
  ) {}

  private key(bucket: string): string {
    return `${this.config.redisPrefix}throttle:${bucket}`;
  }

  /** Seconds until the bucket opens again, or 0 when it is under `limit`. */
  async blockedFor(bucket: string, limit: number): Promise<number> {
    const k = this.key(bucket);
    const [[, count], [, ttl]] = (await this.redis.multi().get(k).pttl(k).exec()) as [
      [null, string | null],
      [null, number],
    ];
    if (Number(count ?? 0) < limit) return 0;
    return Math.max(1, Math.ceil(ttl / 1000));
  }

  /** Counts one event; the window starts at the bucket's first event. Returns the new count. */
  async hit(bucket: string, windowSeconds: number): Promise<number> {
    const k = this.key(bucket);
    const [[, count]] = (await this.redis.multi().incr(k).expire(k, windowSeconds, 'NX').exec()) as [
      [null, number],
    ];
    return count;
  }

  async clear(bucket: string): Promise<void> {
    await this.redis.del(this.key(bucket));
  }

  /** Counts one event and throws 429 (with Retry-After) once the bucket is over `limit`. */
  async consume(bucket: string, limit: number, windowSeconds: number, res: Response, message: string) {
    const count = await this.hit(bucket, windowSeconds);
    if (count > limit) {
      const ttl = await this.redis.pttl(this.key(bucket));
      throw tooMany(res, Math.max(1, Math.ceil(ttl / 1000)), message);
    }
  }
}

export function tooMany(res: Response, retryAfterSeconds: number, message: string): AppError {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return new AppError(
    429,
    'TOO_MANY_REQUESTS',
    `${message} Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
}
