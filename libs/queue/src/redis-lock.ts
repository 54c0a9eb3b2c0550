import { randomUUID } from 'node:crypto';
import { Cluster } from 'ioredis';
import type { RedisClient } from './redis';

// One Redis lock for the places that claim a key for a while (a review's patch writer, a background
// request's claim): SET NX PX with a random token, released only by its holder (compare-and-delete in one
// script), extended only by its holder. A caller that finds the lock held does not poll: it waits for the
// holder's release notification (pub/sub), or for the lock to lapse, whichever comes first.

/** Deletes the key only while it holds our token; then tells waiters (PUBLISH on the lock's channel). */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('PUBLISH', ARGV[2], 'released')
  return 1
end
return 0`;

/** Sets a new lifetime only while the key holds our token. */
const EXTEND = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;

/** A held lock: only this holder's token releases or extends it. */
export class HeldLock {
  constructor(
    private readonly lock: RedisLock,
    readonly token: string,
  ) {}

  /** Gives the lock back (and wakes its waiters); false when it had lapsed or another holder has it now. */
  release(): Promise<boolean> {
    return this.lock.releaseToken(this.token);
  }

  /** Sets the lock's lifetime to `ttlMs` from now; false when it had lapsed or another holder has it now. */
  extend(ttlMs: number): Promise<boolean> {
    return this.lock.extendToken(this.token, ttlMs);
  }
}

/** A lock on one Redis key, whose lifetime (`ttlMs`) frees it if its holder dies. */
export class RedisLock {
  /** The channel its release is announced on. */
  readonly channel: string;

  constructor(
    private readonly locks: RedisLocks,
    readonly key: string,
    readonly ttlMs: number,
  ) {
    this.channel = `${key}:released`;
  }

  /** Takes the lock if it is free; null when another holder has it. */
  async tryAcquire(): Promise<HeldLock | null> {
    const token = randomUUID();
    const set = await this.locks.redis.set(this.key, token, 'PX', this.ttlMs, 'NX');
    return set === 'OK' ? new HeldLock(this, token) : null;
  }

  /**
   * Takes the lock, waiting up to `waitMs` for its holder to release it (woken by the release, not by
   * polling); null when it is still held after `waitMs`.
   */
  async acquire(waitMs: number): Promise<HeldLock | null> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const held = await this.tryAcquire();
      if (held) return held;
      const left = deadline - Date.now();
      if (left <= 0) return null;
      await this.waitForRelease(left);
    }
  }

  /**
   * Resolves once the lock is free or released (true), or after `timeoutMs` (false) — woken by the
   * holder's release notification, or when the lock lapses (a holder that died publishes nothing).
   */
  async waitForRelease(timeoutMs: number): Promise<boolean> {
    const wait = this.locks.wait(this.channel, timeoutMs);
    try {
      await wait.subscribed;
      // Subscribed first, then read: a release in between is not missed.
      const pttl = await this.locks.redis.pttl(this.key);
      if (pttl === -2) return true;
      if (pttl >= 0 && pttl < timeoutMs) wait.shorten(pttl + 5);
      return await wait.released;
    } finally {
      wait.done();
    }
  }

  /** @internal HeldLock.release */
  async releaseToken(token: string): Promise<boolean> {
    return (await this.locks.redis.eval(RELEASE, 1, this.key, token, this.channel)) === 1;
  }

  /** @internal HeldLock.extend */
  async extendToken(token: string, ttlMs: number): Promise<boolean> {
    return (await this.locks.redis.eval(EXTEND, 1, this.key, token, String(ttlMs))) === 1;
  }
}

interface Wait {
  subscribed: Promise<void>;
  /** true when a release was announced; false at the timeout. */
  released: Promise<boolean>;
  shorten(ms: number): void;
  done(): void;
}

/**
 * Makes RedisLocks on one client and owns the one subscriber connection their waiters share (opened while
 * someone waits, closed when the last waiter leaves).
 */
export class RedisLocks {
  private subscriber: RedisClient | null = null;
  /** Per channel: its waiters' wake-ups, and the SUBSCRIBE they all wait for. */
  private readonly waiters = new Map<string, { wakes: Set<() => void>; subscribed: Promise<void> }>();

  /** `prefix` starts every lock's key (the process' Redis prefix). */
  constructor(
    readonly redis: RedisClient,
    readonly prefix = '',
  ) {}

  /** A lock on the key `prefix + name` that lapses `ttlMs` after it was taken or last extended. */
  lock(name: string, ttlMs: number): RedisLock {
    return new RedisLock(this, `${this.prefix}${name}`, ttlMs);
  }

  /** Nest calls this at shutdown when RedisLocks is a provider (RedisProvidersModule's stores). */
  onApplicationShutdown(): void {
    this.close();
  }

  /** Closes the subscriber connection, if one is open (waiters still waiting wake at their timeout). */
  close(): void {
    const sub = this.subscriber;
    this.subscriber = null;
    this.waiters.clear();
    sub?.disconnect();
  }

  /** @internal RedisLock.waitForRelease */
  wait(channel: string, timeoutMs: number): Wait {
    const sub = this.subscriberConnection();
    let wake!: (released: boolean) => void;
    const released = new Promise<boolean>((resolve) => (wake = resolve));
    let timer = setTimeout(() => wake(false), timeoutMs);
    const onRelease = () => wake(true);
    let entry = this.waiters.get(channel);
    if (!entry) {
      entry = { wakes: new Set(), subscribed: sub.subscribe(channel).then(() => undefined) };
      this.waiters.set(channel, entry);
    }
    entry.wakes.add(onRelease);
    return {
      subscribed: entry.subscribed,
      released,
      shorten: (ms) => {
        clearTimeout(timer);
        timer = setTimeout(() => wake(false), ms);
      },
      done: () => {
        clearTimeout(timer);
        const current = this.waiters.get(channel);
        current?.wakes.delete(onRelease);
        if (current && current.wakes.size === 0) {
          this.waiters.delete(channel);
          if (this.subscriber === sub) void sub.unsubscribe(channel).catch(() => undefined);
        }
        if (this.waiters.size === 0 && this.subscriber === sub) {
          this.subscriber = null;
          sub.disconnect();
        }
      },
    };
  }

  private subscriberConnection(): RedisClient {
    if (this.subscriber) return this.subscriber;
    // Subscribing queues until connected, whatever the command client's offline-queue choice.
    // createRedis hands out a Cluster when REDIS_CLUSTER_NODES is set.
    const client = this.redis;
    const sub =
      client instanceof Cluster
        ? client.duplicate(undefined, { enableOfflineQueue: true })
        : client.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: 1 });
    sub.on('error', () => undefined);
    sub.on('message', (channel: string) => {
      for (const wake of this.waiters.get(channel)?.wakes ?? []) wake();
    });
    this.subscriber = sub;
    return sub;
  }
}
