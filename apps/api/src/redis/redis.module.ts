import {
  BatchStore,
  DEFAULT_BLOB_TTL_SECONDS,
  RedisLocks,
  RedisProvidersModule,
  UserJobIndex,
} from '@csv-mapper/queue';
import { ApiConfig } from '../config/api.config';

export { REDIS } from '@csv-mapper/queue';

/**
 * The api's request-path Redis client (fails fast when Redis is down; connected before the first request,
 * as it has no offline queue) and the file store (BLOB_STORE driver), wired by libs/queue's factory.
 */
export const RedisModule = RedisProvidersModule.forRoot({
  config: ApiConfig,
  role: 'command',
  waitForReadyMs: 5000,
  blobTtlSeconds: () => DEFAULT_BLOB_TTL_SECONDS,
  stores: [UserJobIndex, BatchStore, RedisLocks],
});
