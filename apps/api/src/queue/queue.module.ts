import { Global, Module } from '@nestjs/common';
import { BullModule, getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { createRedis, JobProducer, QUEUES } from '@csv-mapper/queue';
import { ApiConfig } from '../config/api.config';

const names = Object.values(QUEUES);

/** Registers the queues the api produces to and exposes the typed JobProducer. */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [ApiConfig],
      useFactory: (c: ApiConfig) => ({
        connection: createRedis(c.redisUrl, 'queue'),
        prefix: `${c.redisPrefix}bull`,
      }),
    }),
    ...names.map((name) => BullModule.registerQueue({ name })),
  ],
  providers: [
    {
      provide: JobProducer,
      inject: names.map((n) => getQueueToken(n)),
      useFactory: (...queues: Queue[]) =>
        new JobProducer(Object.fromEntries(queues.map((q) => [q.name, q]))),
    },
  ],
  exports: [JobProducer, BullModule],
})
export class QueueModule {}
