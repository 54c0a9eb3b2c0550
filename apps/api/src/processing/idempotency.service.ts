import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { BlobNotFoundError, BlobStore, RedisLocks, type HeldLock, type RedisClient } from '@csv-mapper/queue';
import { AppError } from '../common/app-error';
import { ApiConfig } from '../config/api.config';
import { REDIS } from '../redis/redis.module';

// Idempotency-Key on POST /api/process, as Stripe does it: the first request with a key runs; a repeat
// from the same account within 24 h gets the same answer (the same job, for a background run) without
// running again; the same key with another body is refused. A sync answer (it holds the CSV) is kept in
// the file store, so it expires with the results (1 hour); the key's record itself lives 24 hours.
// The request that runs holds the key's RedisLock while it runs; a repeat that finds the key pending waits
// for that lock's release (a notification, not polling) and then answers what the first one stored.

const KEY_TTL_MS = 24 * 3600_000;
/** How long a repeat waits for the first request's answer before 409 REQUEST_IN_PROGRESS. */
const WAIT_MS = 5_000;
/** The running request's lock lapses this long after its holder died (it is extended while it runs). */
const LOCK_TTL_MS = 30_000;

interface KeyRecord {
  hash: string;
  state: 'pending' | 'done';
  status?: number;
  /** A small answer (a queued job), kept inline. */
  body?: unknown;
  /** A large answer, kept in the file store. */
  blobId?: string;
}

export interface IdempotentResult<T> {
  status: number;
  body: T;
  replayed: boolean;
}

@Injectable()
export class IdempotencyService {
  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    private readonly store: BlobStore,
    private readonly config: ApiConfig,
    private readonly locks: RedisLocks,
  ) {}

  async run<T>(
    userId: string,
    key: string,
    request: unknown,
    execute: () => Promise<{ status: number; body: T; large: boolean }>,
  ): Promise<IdempotentResult<T>> {
    if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
      throw new AppError(
        400,
        'INVALID_IDEMPOTENCY_KEY',
        'The Idempotency-Key header must be 1 to 255 visible ASCII characters (a UUID is a good choice).',
      );
    }
    const redisKey = `${this.config.redisPrefix}idem:${userId}:${sha256(key)}`;
    const hash = sha256(JSON.stringify(request));
    const pending: KeyRecord = { hash, state: 'pending' };
    const lock = this.locks.lock(`idem-run:${userId}:${sha256(key)}`, LOCK_TTL_MS);
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const held = await lock.tryAcquire();
      if (held) {
        if (await this.redis.set(redisKey, JSON.stringify(pending), 'PX', KEY_TTL_MS, 'NX')) {
          return this.execute(userId, redisKey, hash, execute, held);
        }
        await held.release();
      }
      // A key given back by a failed first request is free again: the next round runs this one.
      const raw = await this.redis.get(redisKey);
      const record = raw ? (JSON.parse(raw) as KeyRecord) : null;
      if (record && record.hash !== hash) {
        throw new AppError(
          422,
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
        );
      }
      if (record?.state === 'done') return this.replay<T>(userId, record);
      // Pending with its lock free: the request that ran it is gone (nothing will finish it).
      const left = deadline - Date.now();
      if ((held && record) || left <= 0 || !(await lock.waitForRelease(left))) {
        throw new AppError(
          409,
          'REQUEST_IN_PROGRESS',
          'A request with this Idempotency-Key is still running. Try again in a moment.',
        );
      }
    }
  }

  private async execute<T>(
    userId: string,
    redisKey: string,
    hash: string,
    execute: () => Promise<{ status: number; body: T; large: boolean }>,
    held: HeldLock,
  ): Promise<IdempotentResult<T>> {
    // Held while it runs, however long; released (waking the repeats) once the record says what happened.
    const beat = setInterval(() => void held.extend(LOCK_TTL_MS).catch(() => undefined), LOCK_TTL_MS / 3);
    try {
      return await this.record(userId, redisKey, hash, execute);
    } finally {
      clearInterval(beat);
      await held.release().catch(() => undefined);
    }
  }

  private async record<T>(
    userId: string,
    redisKey: string,
    hash: string,
    execute: () => Promise<{ status: number; body: T; large: boolean }>,
  ): Promise<IdempotentResult<T>> {
    let out: { status: number; body: T; large: boolean };
    try {
      out = await execute();
    } catch (err) {
      // Nothing ran to completion: the client may retry with the same key.
      await this.redis.del(redisKey);
      throw err;
    }
    const record: KeyRecord = { hash, state: 'done', status: out.status };
    if (out.large) {
      const w = this.store.createWriter('result', userId, 'idempotent-response.json');
      await w.write(Buffer.from(JSON.stringify(out.body)));
      await w.commit({ idempotentResponse: true });
      record.blobId = w.id;
    } else {
      record.body = out.body;
    }
    await this.redis.set(redisKey, JSON.stringify(record), 'PX', KEY_TTL_MS);
    return { status: out.status, body: out.body, replayed: false };
  }

  private async replay<T>(userId: string, record: KeyRecord): Promise<IdempotentResult<T>> {
    if (!record.blobId) return { status: record.status ?? 200, body: record.body as T, replayed: true };
    try {
      const { stream } = await this.store.openRead(record.blobId, userId);
      return { status: record.status ?? 200, body: JSON.parse(await text(stream)) as T, replayed: true };
    } catch (err) {
      if (!(err instanceof BlobNotFoundError)) throw err;
      throw new AppError(
        409,
        'IDEMPOTENT_RESPONSE_EXPIRED',
        'This request already ran with this Idempotency-Key; its answer held the CSV, which is kept for 1 hour and has expired. Send a new key to run it again.',
      );
    }
  }
}

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}
