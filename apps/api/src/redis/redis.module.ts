import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import {
  BatchStore,
  BlobStore,
  createBlobStore,
  createRedis,
  DEFAULT_BLOB_TTL_SECONDS,
  UserJobIndex,
  waitForReady,
} from '@csv-mapper/queue';
import { ApiConfig } from '../config/api.config';

export const REDIS = Symbol('REDIS');

@Injectable()
class RedisShutdown implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** The api's request-path Redis client (fails fast when Redis is down) and the file store (BLOB_STORE driver). */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [ApiConfig],
      // Connected before the first request: the client fails fast (no offline queue) by design.
      useFactory: async (c: ApiConfig) => {
        const client = createRedis(c.redisUrl, 'command', {}, c.redisClusterNodes);
        await waitForReady(client, 5000);
        return client;
      },
    },
    {
      provide: BlobStore,
      inject: [REDIS, ApiConfig],
      useFactory: (r: Redis, c: ApiConfig) =>
        createBlobStore(c.blobStore, r, c.redisPrefix, DEFAULT_BLOB_TTL_SECONDS),
    },
    {
      provide: UserJobIndex,
      inject: [REDIS, ApiConfig],
      useFactory: (r: Redis, c: ApiConfig) => new UserJobIndex(r, c.redisPrefix),
    },
    {
      provide: BatchStore,
      inject: [REDIS, ApiConfig],
      useFactory: (r: Redis, c: ApiConfig) => new BatchStore(r, c.redisPrefix),
    },
    RedisShutdown,
  ],
  exports: [REDIS, BlobStore, UserJobIndex, BatchStore],
})
export class RedisModule {}
