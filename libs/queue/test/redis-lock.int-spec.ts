import type { Redis } from 'ioredis';
import { createRedis, waitForReady, type RedisClient } from '../src/redis';
import { RedisLocks } from '../src/redis-lock';

// RedisLock against the real Redis: a token per holder, release and extend only by that holder, and a
// waiter woken by the release (or the lock lapsing) instead of polling — counted by the SETs it sends.

describe('RedisLock (real Redis)', () => {
  let redis: RedisClient;
  let locks: RedisLocks;
  let n = 0;
  const name = () => `lock-test:${process.pid}:${++n}`;

  beforeAll(async () => {
    // The api's request-path client: fail fast, no offline queue.
    redis = createRedis(process.env.REDIS_URL as string, 'command');
    await waitForReady(redis, 5000);
    locks = new RedisLocks(redis, process.env.REDIS_PREFIX ?? 'csvm:');
  });
  afterAll(async () => {
    locks.close();
    await redis.quit();
  });

  /** Counts the SET commands `fn` sends through the shared client (each one is an attempt to take a lock). */
  async function countingSets<T>(fn: () => Promise<T>): Promise<{ value: T; sets: number }> {
    const original = redis.set.bind(redis);
    let sets = 0;
    const spy = jest.spyOn(redis, 'set').mockImplementation(((...args: Parameters<Redis['set']>) => {
      sets++;
      return (original as (...a: unknown[]) => unknown)(...args);
    }) as Redis['set']);
    try {
      return { value: await fn(), sets };
    } finally {
      spy.mockRestore();
    }
  }

  it('gives the lock to one holder at a time, with a token, under the prefixed key', async () => {
    const lock = locks.lock(name(), 10_000);
    expect(lock.key.startsWith(process.env.REDIS_PREFIX ?? 'csvm:')).toBe(true);
    const held = await lock.tryAcquire();
    expect(held).not.toBeNull();
    expect(await redis.get(lock.key)).toBe(held?.token);
    expect(await lock.tryAcquire()).toBeNull();
    expect(await held?.release()).toBe(true);
    expect(await redis.exists(lock.key)).toBe(0);
    const again = await lock.tryAcquire();
    expect(again?.token).toBeDefined();
    expect(again?.token).not.toBe(held?.token);
    await again?.release();
  });

  it('releases and extends only its own token', async () => {
    const lock = locks.lock(name(), 10_000);
    const first = await lock.tryAcquire();
    // The first holder's lock lapses (simulated by deleting it); a second holder takes it.
    await redis.del(lock.key);
    const second = await lock.tryAcquire();
    expect(second).not.toBeNull();
    expect(await first?.release()).toBe(false);
    expect(await first?.extend(60_000)).toBe(false);
    expect(await redis.get(lock.key)).toBe(second?.token);
    expect(await redis.pttl(lock.key)).toBeLessThanOrEqual(10_000);
    expect(await second?.extend(60_000)).toBe(true);
    expect(await redis.pttl(lock.key)).toBeGreaterThan(10_000);
    expect(await second?.release()).toBe(true);
    expect(await second?.release()).toBe(false);
  });

  it('wakes a waiter when the holder releases, without polling', async () => {
    const lock = locks.lock(name(), 30_000);
    const holder = await lock.tryAcquire();
    let waiterGotIt = false;
    const { value, sets } = await countingSets(async () => {
      const waiting = lock.acquire(20_000).then((h) => {
        waiterGotIt = true;
        return h;
      });
      // The waiter subscribed and found the lock held; nothing polls meanwhile.
      await until(() => redis.pubsub('NUMSUB', lock.channel).then((r) => Number((r as unknown[])[1]) === 1));
      expect(waiterGotIt).toBe(false);
      await holder?.release();
      return waiting;
    });
    expect(value).not.toBeNull();
    expect(await redis.get(lock.key)).toBe(value?.token);
    // One attempt before waiting, one after the release.
    expect(sets).toBe(2);
    await value?.release();
    // The shared subscriber connection is closed once nobody waits.
    await until(() => redis.pubsub('NUMSUB', lock.channel).then((r) => Number((r as unknown[])[1]) === 0));
  });

  it('wakes a waiter when a dead holder’s lock lapses (no release to announce)', async () => {
    const lock = locks.lock(name(), 400);
    expect(await lock.tryAcquire()).not.toBeNull();
    const { value, sets } = await countingSets(() => lock.acquire(20_000));
    expect(value).not.toBeNull();
    expect(sets).toBeLessThanOrEqual(3);
    await value?.release();
  });

  it('gives up after the wait when the holder keeps the lock, answering null', async () => {
    const lock = locks.lock(name(), 30_000);
    const holder = await lock.tryAcquire();
    const { value, sets } = await countingSets(() => lock.acquire(300));
    expect(value).toBeNull();
    expect(sets).toBeLessThanOrEqual(2);
    expect(await redis.get(lock.key)).toBe(holder?.token);
    await holder?.release();
  });

  it('serialises many contenders: each runs alone, all run', async () => {
    const lock = locks.lock(name(), 10_000);
    let inside = 0;
    let maxInside = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        const held = await lock.acquire(20_000);
        expect(held).not.toBeNull();
        inside++;
        maxInside = Math.max(maxInside, inside);
        await new Promise((r) => setImmediate(r));
        inside--;
        done++;
        await held?.release();
      }),
    );
    expect(done).toBe(8);
    expect(maxInside).toBe(1);
  });
});

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition not reached');
}
