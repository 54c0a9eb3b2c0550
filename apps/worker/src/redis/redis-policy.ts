import { assertNoEviction, createRedis } from '@csv-mapper/queue';
import type { WorkerConfig } from '../config/worker.config';

/**
 * Refuses a Redis whose maxmemory-policy evicts keys, as the api does at boot (issue 28: the worker used to
 * start and serve on one, where BullMQ loses jobs and locks under memory pressure). A Redis that is down
 * is waited for (the worker's connections retry for ever anyway); the answer is one line to act on.
 */
export async function assertRedisKeepsKeys(config: WorkerConfig): Promise<void> {
  if (!config.checkRedisPolicy) return;
  const redis = createRedis(config.redisUrl, 'worker', {}, config.redisClusterNodes);
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
