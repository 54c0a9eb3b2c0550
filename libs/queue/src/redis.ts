import type { ConnectionOptions } from 'bullmq';
import IORedis, { Cluster, Redis, RedisOptions } from 'ioredis';

export type RedisRole = 'command' | 'worker' | 'queue';

/** A connection as createRedis hands it out: one Redis, or a Cluster when REDIS_CLUSTER_NODES is set. */
export type RedisClient = Redis | Cluster;

// Redis Cluster: when REDIS_CLUSTER_NODES lists seed nodes (host:port,…), every client is an ioredis
// Cluster instead (credentials and TLS still come from REDIS_URL). Every key we write is cluster-safe:
// keys that one MULTI or script touches together share a hash tag (see slotKey), and BullMQ's prefix is
// one hash tag (bullPrefix), as BullMQ requires. Single-node Redis stays the default.

/** Parses REDIS_CLUSTER_NODES ("host:port,host:port"); undefined when unset or empty. */
export function parseClusterNodes(
  value: string | undefined,
): Array<{ host: string; port: number }> | undefined {
  const nodes = (value ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)
    .map((n) => {
      const m = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(n);
      if (!m) throw new Error(`REDIS_CLUSTER_NODES: "${n}" is not host:port`);
      return { host: m[1], port: Number(m[2]) };
    });
  return nodes.length ? nodes : undefined;
}

export type ClusterNodes = ReturnType<typeof parseClusterNodes>;

/**
 * A key whose `tag` is a Redis Cluster hash tag: keys with the same tag live in the same slot, so a MULTI or
 * script may touch them together. On a single Redis the braces are just characters.
 */
export function slotKey(prefix: string, tag: string, rest: string): string {
  return `${prefix}{${tag}}:${rest}`;
}

/** BullMQ's key prefix: one hash tag, so each queue's keys (and BullMQ's scripts over them) share a slot. */
export function bullPrefix(redisPrefix: string): string {
  return `${redisPrefix}{bull}`;
}

function credentials(url: string): RedisOptions {
  const u = new URL(url);
  return {
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    tls: u.protocol === 'rediss:' ? {} : undefined,
  };
}

function createCluster(url: string, nodes: NonNullable<ClusterNodes>, options: RedisOptions): Cluster {
  const { lazyConnect, ...redisOptions } = options;
  const cluster = new Cluster(nodes, {
    redisOptions: { ...credentials(url), ...redisOptions },
    enableOfflineQueue: options.enableOfflineQueue ?? true,
    enableReadyCheck: options.enableReadyCheck ?? true,
    lazyConnect: lazyConnect ?? false,
    // Each MOVED/ASK answer is followed; a failover gets a few tries before a command fails.
    maxRedirections: 16,
    clusterRetryStrategy: options.retryStrategy ?? ((times) => Math.min(100 * times, 2000)),
  });
  cluster.on('error', () => undefined);
  return cluster;
}

/**
 * One place that knows how our Redis connections are configured.
 * - worker connections block (BRPOPLPUSH…), so BullMQ requires `maxRetriesPerRequest: null`;
 * - request-path connections fail fast (no offline queue) so the api answers 503 instead of hanging.
 */
export function createRedis(
  url: string,
  role: RedisRole,
  extra: RedisOptions = {},
  clusterNodes?: ClusterNodes,
): RedisClient {
  const base: RedisOptions =
    role === 'worker'
      ? { maxRetriesPerRequest: null, enableReadyCheck: false }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: role === 'queue', connectTimeout: 2000 };
  if (clusterNodes) {
    // ioredis' Cluster speaks every command this codebase sends (single-slot MULTI and scripts included),
    // so callers keep one client type.
    return createCluster(url, clusterNodes, { ...base, ...extra });
  }
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
export function waitForReady(client: RedisClient, timeoutMs: number): Promise<boolean> {
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
export async function assertNoEviction(client: RedisClient): Promise<void> {
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
export function bullConnection(
  url: string,
  role: 'worker' | 'queue',
  clusterNodes?: ClusterNodes,
): ConnectionOptions {
  if (clusterNodes) {
    // BullMQ takes a Cluster only as an instance, which it shares and never closes: closeBullClusters()
    // does that at shutdown. Its blocking worker connections are its own duplicates, closed by BullMQ.
    const cluster = createCluster(
      url,
      clusterNodes,
      role === 'worker'
        ? { maxRetriesPerRequest: null, enableReadyCheck: false }
        : { maxRetriesPerRequest: 1, connectTimeout: 2000 },
    );
    bullClusters.add(cluster);
    return cluster;
  }
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

const bullClusters = new Set<Cluster>();

/** Closes the Cluster clients handed to BullMQ (it does not close shared connections itself). */
export async function closeBullClusters(): Promise<void> {
  const all = [...bullClusters];
  bullClusters.clear();
  await Promise.all(all.map((c) => c.quit().catch(() => c.disconnect())));
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
