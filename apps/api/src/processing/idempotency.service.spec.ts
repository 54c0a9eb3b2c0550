import { randomUUID } from 'node:crypto';
import { BlobStore, createRedis, RedisLocks, waitForReady, type RedisClient } from '@csv-mapper/queue';
import type { ApiConfig } from '../config/api.config';
import { IdempotencyService } from './idempotency.service';

// Idempotency-Key against the real Redis: concurrent repeats of a running request wait for its lock's
// release and answer what it stored (it runs once); a failed first request gives the key back.

describe('IdempotencyService (real Redis)', () => {
  const prefix = `idem-spec:${process.pid}:${randomUUID()}:`;
  let redis: RedisClient;
  let locks: RedisLocks;
  let service: IdempotencyService;

  beforeAll(async () => {
    redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'command');
    await waitForReady(redis, 5000);
    locks = new RedisLocks(redis, prefix);
    // Small answers only: the file store is never reached.
    service = new IdempotencyService(redis, {} as BlobStore, { redisPrefix: prefix } as ApiConfig, locks);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    locks.close();
    await redis.quit();
  });

  const slow =
    <T>(body: T, ms: number) =>
    async () => {
      await new Promise((r) => setTimeout(r, ms));
      return { status: 202, body, large: false };
    };

  it('runs concurrent repeats once: they wait for the first and answer the same', async () => {
    const key = randomUUID();
    let runs = 0;
    const execute = async () => {
      runs++;
      return slow({ jobId: `job-${runs}` }, 300)();
    };
    const answers = await Promise.all([1, 2, 3].map(() => service.run('u1', key, { a: 1 }, execute)));
    expect(runs).toBe(1);
    expect(answers.map((a) => a.body)).toEqual([{ jobId: 'job-1' }, { jobId: 'job-1' }, { jobId: 'job-1' }]);
    expect(answers.filter((a) => a.replayed)).toHaveLength(2);
    expect(answers.every((a) => a.status === 202)).toBe(true);
  });

  it('refuses the same key with another body while the first still runs', async () => {
    const key = randomUUID();
    const first = service.run('u1', key, { a: 1 }, slow({ ok: 1 }, 300));
    await new Promise((r) => setTimeout(r, 50));
    await expect(service.run('u1', key, { a: 2 }, slow({ ok: 2 }, 0))).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    await expect(first).resolves.toMatchObject({ body: { ok: 1 }, replayed: false });
  });

  it('lets a waiting repeat run when the first request fails', async () => {
    const key = randomUUID();
    const failing = async (): Promise<{ status: number; body: { ok: number }; large: boolean }> => {
      await new Promise((r) => setTimeout(r, 200));
      throw new Error('boom');
    };
    const first = service.run('u1', key, { a: 1 }, failing);
    await new Promise((r) => setTimeout(r, 50));
    const second = service.run('u1', key, { a: 1 }, slow({ ok: 2 }, 0));
    await expect(first).rejects.toThrow('boom');
    await expect(second).resolves.toMatchObject({ body: { ok: 2 }, replayed: false });
  });
});
