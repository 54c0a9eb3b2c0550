import { Global, Logger, Module } from '@nestjs/common';
import { BullModule, getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { bullConnection, bullPrefix, JobProducer, QUEUES } from '@csv-mapper/queue';
import { ApiConfig } from '../config/api.config';
import { QueueBacklogService } from './queue-backlog.service';

const names = Object.values(QUEUES);

/** Registers the queues the api produces to and exposes the typed JobProducer and the queues' backlog. */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [ApiConfig],
      useFactory: (c: ApiConfig) => ({
        connection: bullConnection(c.redisUrl, 'queue', c.redisClusterNodes),
        prefix: bullPrefix(c.redisPrefix),
      }),
    }),
    ...names.map((name) => BullModule.registerQueue({ name })),
  ],
  providers: [
    {
      provide: JobProducer,
      inject: names.map((n) => getQueueToken(n)),
      useFactory: (...queues: Queue[]) => {
        const logger = new Logger('Queues');
        let lastLogged = 0;
        for (const q of queues) {
          // Without a listener BullMQ prints every reconnect failure; log at most one line per 10 s.
          q.on('error', (err) => {
            if (Date.now() - lastLogged < 10_000) return;
            lastLogged = Date.now();
            logger.warn(`queue ${q.name}: ${err.message}`);
          });
        }
        return new JobProducer(Object.fromEntries(queues.map((q) => [q.name, q])));
      },
    },
    {
      provide: QueueBacklogService,
      inject: names.map((n) => getQueueToken(n)),
      useFactory: (...queues: Queue[]) => new QueueBacklogService(queues),
    },
  ],
  exports: [JobProducer, QueueBacklogService, BullModule],
})
export class QueueModule {}
