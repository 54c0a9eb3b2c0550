import type { INestApplicationContext, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadWorkerConfig } from '../../src/config/worker.config';
import { WorkerModule } from '../../src/worker.module';

// Shared by the api's and the worker's tests: the real worker, in process, against this test file's database
// and Redis prefix (test/setup-env.ts), with `env` laid over the process environment.

/** Boots and initialises the worker; `logger` is Nest's (silent unless a test captures it). */
export async function startWorker(
  env: Record<string, string | undefined> = {},
  logger: LoggerService | false = false,
): Promise<INestApplicationContext> {
  const worker = await NestFactory.createApplicationContext(
    WorkerModule.forRoot(loadWorkerConfig({ ...process.env, ...env })),
    { logger },
  );
  await worker.init();
  return worker;
}
