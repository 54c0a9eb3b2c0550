import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { loadWorkerConfig } from './config/worker.config';
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
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  const logger = app.get(Logger);
  app.useLogger(logger);
  await app.init();
  for (const w of workersOf(app)) w.concurrency = config.concurrency;
  logger.log(
    `worker ready; serving queues: ${servedQueues(app).join(', ')} (concurrency ${config.concurrency})`,
  );
  installGracefulShutdown(app, config.shutdownGraceMs, logger);
}

main().catch((err) => {
  console.error('worker: failed to start:', err);
  process.exit(1);
});
