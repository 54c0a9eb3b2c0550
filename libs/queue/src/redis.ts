import type { ConnectionOptions } from 'bullmq';
import IORedis, { Redis, RedisOptions } from 'ioredis';

export type RedisRole = 'command' | 'worker' | 'queue';

/**
 * One place that knows how our Redis connections are configured.
 * - worker connections block (BRPOPLPUSH…), so BullMQ requires `maxRetriesPerRequest: null`;
 * - request-path connections fail fast (no offline queue) so the api answers 503 instead of hanging.
 */
export function createRedis(url: string, role: RedisRole, extra: RedisOptions = {}): Redis {
  const base: RedisOptions =
    role === 'worker'
      ? { maxRetriesPerRequest: null, enableReadyCheck: false }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: role === 'queue', connectTimeout: 2000 };
  const client = new IORedis(url, { ...base, lazyConnect: false, ...extra });
  // An unhandled 'error' event would crash the process; reconnection is automatic.
  client.on('error', () => undefined);
  return client;
}

/**
 * Resolves once the client is connected, or after `timeoutMs` (a Redis that is down must not stop the
 * process from starting: the health check reports it). A fail-fast client without an offline queue
 * would otherwise reject the first requests that arrive while it is still connecting.
 */
export function waitForReady(client: Redis, timeoutMs: number): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      client.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    timer.unref();
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    client.once('ready', onReady);
  });
}

/** BullMQ refuses to be reliable under eviction: job locks have TTLs (ARCHITECTURE §3). */
export async function assertNoEviction(client: Redis): Promise<void> {
  const res = (await client.config('GET', 'maxmemory-policy')) as string[];
  const policy = res[1];
  if (policy !== 'noeviction') {
    throw new Error(
      `Redis maxmemory-policy is "${policy}" but must be "noeviction" (BullMQ would lose jobs). ` +
        `Run: redis-cli CONFIG SET maxmemory-policy noeviction`,
    );
  }
}

/**
 * Connection options (not a client) for BullMQ, so each Queue/Worker owns and closes its own
 * connection. Workers get `maxRetriesPerRequest: null` as BullMQ requires.
 */
export function bullConnection(url: string, role: 'worker' | 'queue'): ConnectionOptions {
  const u = new URL(url);
  const db = u.pathname && u.pathname !== '/' ? Number(u.pathname.slice(1)) : 0;
  return {
    host: u.hostname || '127.0.0.1',
    port: Number(u.port || 6379),
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: Number.isFinite(db) ? db : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
    ...(role === 'worker'
      ? { maxRetriesPerRequest: null, enableReadyCheck: false }
      : { maxRetriesPerRequest: 1, connectTimeout: 2000 }),
  };
}

/**
 * True for the errors ioredis/BullMQ raise while Redis is unreachable (refused, closed, offline
 * queue disabled, retries exhausted), so callers can answer 503 instead of 500.
 */
export function isRedisUnavailableError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { name?: string; code?: string; message?: string };
  if (e.name === 'MaxRetriesPerRequestError') return true;
  if (e.code && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH'].includes(e.code))
    return true;
  return /Connection is closed|Stream isn't writeable|enableOfflineQueue|connect ETIMEDOUT/.test(
    e.message ?? '',
  );
}
