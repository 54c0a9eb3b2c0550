import {
  BatchStore,
  JobDurationMetrics,
  RedisProvidersModule,
  StalledJobCounter,
  UserJobIndex,
} from '@csv-mapper/queue';
import { WorkerConfig } from '../config/worker.config';

export { REDIS } from '@csv-mapper/queue';

/**
 * The worker's command connection (queues commands while reconnecting) and the blob store on it, wired by
 * libs/queue's factory.
 */
export const RedisModule = RedisProvidersModule.forRoot({
  config: WorkerConfig,
  role: 'queue',
  blobTtlSeconds: (c) => c.blobTtlSeconds,
  stores: [UserJobIndex, BatchStore, JobDurationMetrics, StalledJobCounter],
});
