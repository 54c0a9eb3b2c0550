import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { BlobStore } from './blob-store';
import { createBlobStore, type BlobStoreSettings } from './blob-store-factory';
import type { RedisSettings } from './infra-env';
import { assertNoEviction, createRedis, waitForReady, type RedisClient } from './redis';

// The Redis providers the api and the worker both need — one command client, the file store on it, the
// stores keyed by the Redis prefix, and the client's shutdown — wired once. Each app passes its config
// class and what differs (the client's role, whether to wait for it, the blob TTL, which stores).

/** The injection token of the process' command client (an ioredis Redis, or a Cluster behind that type). */
export const REDIS = Symbol('REDIS');

/** What the providers read from an app's config. */
export interface RedisModuleConfig extends RedisSettings {
  readonly blobStore: BlobStoreSettings;
}

/** A store on the command client, built as `new Store(redis, redisPrefix)` and injected by its class. */
export type RedisStoreClass = new (redis: RedisClient, prefix: string) => object;

export interface RedisModuleOptions<C extends RedisModuleConfig> {
  /** The app's config class, provided globally by the app (its instance is injected by this token). */
  config: abstract new (...args: never[]) => C;
  /**
   * `command` fails fast (no offline queue: a request answers 503 instead of hanging); `queue` queues
   * commands while reconnecting (background work waits Redis out).
   */
  role: 'command' | 'queue';
  /** Wait this long for the client to connect before the app starts (a fail-fast client needs it). */
  waitForReadyMs?: number;
  /** Lifetime of the memory store's blobs. */
  blobTtlSeconds: (config: C) => number;
  /** The stores keyed by the Redis prefix this app injects. */
  stores: readonly RedisStoreClass[];
}

@Injectable()
class RedisShutdown implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: RedisClient) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** The Redis client, BlobStore and prefix-keyed stores, global in the app that imports it. */
@Module({})
export class RedisProvidersModule {
  static forRoot<C extends RedisModuleConfig>(o: RedisModuleOptions<C>): DynamicModule {
    const providers: Provider[] = [
      {
        provide: REDIS,
        inject: [o.config],
        useFactory: async (c: C) => {
          const client = createRedis(c.redisUrl, o.role, {}, c.redisClusterNodes);
          if (o.waitForReadyMs !== undefined) await waitForReady(client, o.waitForReadyMs);
          return client;
        },
      },
      {
        provide: BlobStore,
        inject: [REDIS, o.config],
        useFactory: (r: RedisClient, c: C) =>
          createBlobStore(c.blobStore, r, c.redisPrefix, o.blobTtlSeconds(c)),
      },
      ...o.stores.map((Store): Provider => ({
        provide: Store,
        inject: [REDIS, o.config],
        useFactory: (r: RedisClient, c: C) => new Store(r, c.redisPrefix),
      })),
      RedisShutdown,
    ];
    return {
      module: RedisProvidersModule,
      global: true,
      providers,
      exports: [REDIS, BlobStore, ...o.stores],
    };
  }
}

/**
 * Refuses a Redis whose maxmemory-policy evicts keys (BullMQ loses jobs and locks under memory pressure),
 * unless the settings skip the check. A Redis that is down is waited for (a `worker` client retries for
 * ever); a Redis that refuses CONFIG GET gets one line to act on.
 */
export async function assertRedisKeepsKeys(settings: RedisSettings): Promise<void> {
  if (!settings.checkRedisPolicy) return;
  const redis = createRedis(settings.redisUrl, 'worker', {}, settings.redisClusterNodes);
  try {
    await assertNoEviction(redis);
  } catch (err) {
    const msg = (err as Error).message;
    if (msg.includes('maxmemory-policy')) throw err;
    throw new Error(
      `Cannot read Redis' maxmemory-policy (${msg}). Set it to noeviction; where CONFIG GET is not ` +
        `allowed (some managed Redis services), set SKIP_REDIS_POLICY_CHECK=1 once you have.`,
      { cause: err },
    );
  } finally {
    redis.disconnect();
  }
}
