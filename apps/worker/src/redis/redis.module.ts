import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import {
  BatchStore,
  createRedis,
  EphemeralStore,
  JobDurationMetrics,
  StalledJobCounter,
  UserJobIndex,
} from '@csv-mapper/queue';
import { WorkerConfig } from '../config/worker.config';

export const REDIS = Symbol('REDIS');

@Injectable()
class RedisShutdown implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** The worker's command connection (queues commands while reconnecting) and the blob store on it. */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [WorkerConfig],
      useFactory: (c: WorkerConfig) => createRedis(c.redisUrl, 'queue'),
    },
    {
      provide: EphemeralStore,
      inject: [REDIS, WorkerConfig],
      useFactory: (r: Redis, c: WorkerConfig) => new EphemeralStore(r, c.redisPrefix, c.blobTtlSeconds),
    },
    {
      provide: UserJobIndex,
      inject: [REDIS, WorkerConfig],
      useFactory: (r: Redis, c: WorkerConfig) => new UserJobIndex(r, c.redisPrefix),
    },
    {
      provide: BatchStore,
      inject: [REDIS, WorkerConfig],
      useFactory: (r: Redis, c: WorkerConfig) => new BatchStore(r, c.redisPrefix),
    },
    {
      provide: JobDurationMetrics,
      inject: [REDIS, WorkerConfig],
      useFactory: (r: Redis, c: WorkerConfig) => new JobDurationMetrics(r, c.redisPrefix),
    },
    {
      provide: StalledJobCounter,
      inject: [REDIS, WorkerConfig],
      useFactory: (r: Redis, c: WorkerConfig) => new StalledJobCounter(r, c.redisPrefix),
    },
    RedisShutdown,
  ],
  exports: [REDIS, EphemeralStore, UserJobIndex, BatchStore, JobDurationMetrics, StalledJobCounter],
})
export class RedisModule {}
