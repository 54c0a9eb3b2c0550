import type { INestApplicationContext, LoggerService } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { WorkerHost } from '@nestjs/bullmq';

let forced = false;
/** True once the grace period is over: processors stop making progress (the process is about to exit). */
export function isForcedShutdown(): boolean {
  return forced;
}

/** The BullMQ workers that Nest created for our @Processor classes. */
export function workersOf(app: INestApplicationContext) {
  const discovery = app.get(DiscoveryService);
  return discovery
    .getProviders()
    .map((w) => w.instance as unknown)
    .filter((i): i is WorkerHost => i instanceof WorkerHost)
    .map((host) => host.worker);
}

export function servedQueues(app: INestApplicationContext): string[] {
  return workersOf(app).map((w) => w.name);
}

/**
 * SIGTERM/SIGINT: stop taking jobs, give active ones `graceMs` to finish, then close anyway —
 * `worker.close()` has no timeout of its own, and an unfinished job's lock lapses so another
 * worker picks it up (stalled-job recovery).
 */
export function installGracefulShutdown(
  app: INestApplicationContext,
  graceMs: number,
  logger: LoggerService,
): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received: finishing active jobs (up to ${graceMs} ms)`);
    const workers = workersOf(app);
    const closeAll = Promise.all(workers.map((w) => w.close()));
    const timedOut = await Promise.race([
      closeAll.then(() => false),
      new Promise<boolean>((r) => setTimeout(() => r(true), graceMs).unref()),
    ]);
    if (timedOut) {
      forced = true;
      logger.warn?.('grace period over: closing with jobs still active; they will be retried elsewhere');
      // The interrupted job keeps its lock until it lapses (WORKER_LOCK_MS), then another worker
      // takes it over; closing connections must not hold the exit up past the grace period.
      await Promise.race([
        Promise.all(workers.map((w) => w.close(true))).catch(() => undefined),
        new Promise((r) => setTimeout(r, 250).unref()),
      ]);
      await Promise.race([
        app.close().catch(() => undefined),
        new Promise((r) => setTimeout(r, 250).unref()),
      ]);
      process.exit(0);
    }
    await app.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
