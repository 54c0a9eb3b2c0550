import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { slotKey, type RedisClient } from '@csv-mapper/queue';
import { AppError } from '../common/app-error';
import { ApiConfig } from '../config/api.config';
import { REDIS } from '../redis/redis.module';

/** One bucket a guarded attempt takes a slot in, and how many slots the bucket has per window. */
export interface ThrottleSlot {
  bucket: string;
  limit: number;
  /** Only check that the bucket is not full; take no slot in it. */
  checkOnly?: boolean;
}

// Takes one slot in every bucket (KEYS) or in none, in a single step: when any bucket is full it answers
// {index, pttl} of the first full one (1-based), else {0, 0}. A new bucket's window starts at its first slot.
// ARGV: the limits, the window, then per key '1' to take a slot or '0' to check only.
const RESERVE_SCRIPT = `
local window = ARGV[#KEYS + 1]
for i = 1, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') >= tonumber(ARGV[i]) then
    return {i, redis.call('PTTL', KEYS[i])}
  end
end
for i = 1, #KEYS do
  if ARGV[#KEYS + 1 + i] == '1' then
    redis.call('INCR', KEYS[i])
    redis.call('EXPIRE', KEYS[i], window, 'NX')
  end
end
return {0, 0}`;

// Gives one slot back, never below zero and never to a bucket whose window has ended.
const RELEASE_SCRIPT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

/** Fixed-window counters in Redis, so limits hold across api instances. */
@Injectable()
export class ThrottleService {
  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    private readonly config: ApiConfig,
  ) {}

  private key(bucket: string): string {
    // One hash tag for every bucket: a reserve takes slots in several buckets in one script.
    return slotKey(this.config.redisPrefix, 'throttle', bucket);
  }

  /** Counts one event; the window starts at the bucket's first event. Returns the new count. */
  async hit(bucket: string, windowSeconds: number): Promise<number> {
    const k = this.key(bucket);
    const [[, count]] = (await this.redis.multi().incr(k).expire(k, windowSeconds, 'NX').exec()) as [
      [null, number],
    ];
    return count;
  }

  /**
   * Takes a slot in each bucket before the guarded work runs (a password check), atomically, so
   * concurrent attempts cannot overshoot a limit the way check-then-count can. Returns null when the
   * slots are taken, else the full bucket and the seconds until its window ends.
   */
  async reserve(
    slots: ThrottleSlot[],
    windowSeconds: number,
  ): Promise<{ blocked: ThrottleSlot; retryAfterSeconds: number } | null> {
    const keys = slots.map((s) => this.key(s.bucket));
    const args = [
      ...slots.map((s) => String(s.limit)),
      String(windowSeconds),
      ...slots.map((s) => (s.checkOnly ? '0' : '1')),
    ];
    const [index, pttl] = (await this.redis.eval(RESERVE_SCRIPT, keys.length, ...keys, ...args)) as [
      number,
      number,
    ];
    if (index === 0) return null;
    const seconds = pttl > 0 ? Math.ceil(pttl / 1000) : windowSeconds;
    return { blocked: slots[index - 1], retryAfterSeconds: Math.max(1, seconds) };
  }

  /** Seconds until the bucket's window ends (at least 1; the whole window when it has none). */
  async secondsLeft(bucket: string, windowSeconds: number): Promise<number> {
    const pttl = await this.redis.pttl(this.key(bucket));
    return Math.max(1, pttl > 0 ? Math.ceil(pttl / 1000) : windowSeconds);
  }

  /** Gives back a slot `reserve` took (the guarded attempt turned out not to count, e.g. it succeeded). */
  async release(bucket: string): Promise<void> {
    await this.redis.eval(RELEASE_SCRIPT, 1, this.key(bucket));
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
