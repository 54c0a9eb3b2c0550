import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { BatchStore, createRedis, EphemeralStore, UserJobIndex, waitForReady } from '@csv-mapper/queue';
import { ApiConfig } from '../config/api.config';

export const REDIS = Symbol('REDIS');

@Injectable()
class RedisShutdown implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** The api's request-path Redis client (fails fast when Redis is down) and the ephemeral file store. */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [ApiConfig],
      // Connected before the first request: the client fails fast (no offline queue) by design.
      useFactory: async (c: ApiConfig) => {
        const client = createRedis(c.redisUrl, 'command');
        await waitForReady(client, 5000);
        return client;
      },
    },
    {
      provide: EphemeralStore,
      inject: [REDIS, ApiConfig],
      useFactory: (r: Redis, c: ApiConfig) => new EphemeralStore(r, c.redisPrefix),
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
  exports: [REDIS, EphemeralStore, UserJobIndex, BatchStore],
})
export class RedisModule {}
