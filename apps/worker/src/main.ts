import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { QUEUES } from '@csv-mapper/queue';
import { Logger } from 'nestjs-pino';
import { loadWorkerConfig } from './config/worker.config';
import { assertRedisKeepsKeys } from './redis/redis-policy';
import { WorkerModule } from './worker.module';
import { installGracefulShutdown, servedQueues, workersOf } from './shutdown';

/** The worker: a Nest application context with no HTTP server (queues and cron only). */
async function main(): Promise<void> {
  let config;
  try {
    config = loadWorkerConfig();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  try {
    await assertRedisKeepsKeys(config);
  } catch (err) {
    console.error(`worker: ${(err as Error).message}`);
    process.exit(1);
  }
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  const logger = app.get(Logger);
  app.useLogger(logger);
  await app.init();
  // Without 'error' listeners BullMQ prints every failed reconnect while Redis is down; one line per 10 s.
  let lastLogged = 0;
  const onError = (err: Error) => {
    if (Date.now() - lastLogged < 10_000) return;
    lastLogged = Date.now();
    logger.warn(`redis: ${err.message} (reconnecting)`);
  };
  for (const w of workersOf(app)) {
    w.concurrency = w.name === QUEUES.webhooks ? config.webhookConcurrency : config.concurrency;
    w.on('error', onError);
  }
  for (const name of Object.values(QUEUES)) app.get<Queue>(getQueueToken(name)).on('error', onError);
  logger.log(
    `worker ready; serving queues: ${servedQueues(app).join(', ')} (concurrency ${config.concurrency}, ` +
      `webhook deliveries ${config.webhookConcurrency})`,
  );
  installGracefulShutdown(app, config.shutdownGraceMs, logger);
}

main().catch((err) => {
  console.error('worker: failed to start:', err);
  process.exit(1);
});
