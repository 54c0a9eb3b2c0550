import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { startWorker } from '../../../worker/test/support/start-worker';
import { startApp } from './api-test-app';

// The api and the worker in this test process, for files whose requests start background jobs:
//   beforeAll(async () => ({ app, worker } = await startAppAndWorker()));
//   afterAll(() => closeAll(worker, app));

export async function startAppAndWorker(
  appEnv: Record<string, string> = {},
  workerEnv: Record<string, string | undefined> = {},
): Promise<{ app: INestApplication; worker: INestApplicationContext }> {
  const app = await startApp(appEnv);
  return { app, worker: await startWorker(workerEnv) };
}

/** Closes each in order (the worker before the api), skipping what never started. */
export async function closeAll(...running: Array<{ close(): Promise<unknown> } | undefined>): Promise<void> {
  for (const r of running) await r?.close();
}
