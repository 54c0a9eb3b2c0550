// Shared by the worker's real-process tests (reliability.int-spec: crashes, shutdowns, Redis restarts;
// retention.int-spec: Redis after 1,000 jobs): the mapping they run, the worker's short lock settings, a
// 50 ms poll and a private Redis server on a port of the test's own.
import type { ChildProcess } from 'node:child_process';
import IORedis from 'ioredis';
import type { MappingPair } from '@csv-mapper/contracts';
import { spawnRedisServer } from '../../../../bench/support/redis-cluster';
import { until } from '../../../api/test/support/poll';

export const LOCK = { WORKER_LOCK_MS: '2000', WORKER_STALLED_INTERVAL_MS: '1000' };
export const TEMPLATE = 'Date,Customer,Amount\n';
export const MAPPINGS: MappingPair[] = [
  // 'auto' date detection makes each row cost a little more, so big jobs run long enough to interrupt.
  {
    templateColumn: 'Date',
    dataColumn: 'Booking Date',
    transform: { kind: 'date', input: 'auto', output: 'MM/DD/YYYY' },
  },
  { templateColumn: 'Customer', dataColumn: 'Customer Name' },
  { templateColumn: 'Amount', dataColumn: 'Amount', transform: { kind: 'number', decimalSeparator: ',' } },
];

export const DATA_HEADERS = ['Booking Date', 'Customer Name', 'Amount'];

/** `until`, every 50 ms. */
export const poll = <T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> =>
  until(what, fn, timeoutMs, 50);

/** A Redis server of the test's own on `port` (no persistence), once it answers. */
export async function startPrivateRedis(port: number): Promise<ChildProcess> {
  const server = spawnRedisServer(port);
  const probe = new IORedis({ port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
  probe.on('error', () => undefined);
  try {
    await poll(
      'redis to answer',
      () =>
        probe.ping().then(
          () => true,
          () => undefined,
        ),
      10_000,
    );
  } finally {
    probe.disconnect();
  }
  return server;
}
