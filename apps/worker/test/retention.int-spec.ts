import type { ChildProcess } from 'node:child_process';
import IORedis from 'ioredis';
import { Queue } from 'bullmq';
import { bullConnection, bullPrefix, EphemeralStore, JobProducer, QUEUES } from '@csv-mapper/queue';
import { exited, freePort, startStack, type Stack } from '../../../bench/support/stack';
import { DATA_HEADERS, LOCK, MAPPINGS, poll, startPrivateRedis } from './support/reliability';

// Redis after a burst of small jobs, on a Redis server of the test's own: uploads and results expire by their
// TTLs and the cleanup trims finished jobs, so memory returns near its baseline and no CSV content is left.
// It waits on TTLs rather than timing anything, so it runs beside other files (reliability.int-spec, which
// times kills and shutdowns, runs alone).

jest.setTimeout(90_000);

describe('Redis returns to its baseline after retention (real processes, private Redis)', () => {
  let stack: Stack | undefined;
  let server: ChildProcess | undefined;
  afterEach(async () => {
    await stack?.stop();
    stack = undefined;
    server?.kill('SIGKILL');
    if (server) await exited(server);
  });

  it('1,000 small jobs: Redis returns near its baseline after retention, no CSV content left', async () => {
    const port = await freePort();
    server = await startPrivateRedis(port);
    const url = `redis://127.0.0.1:${port}`;
    stack = await startStack({
      fromSource: true,
      redisUrl: url,
      env: {
        ...LOCK,
        BLOB_TTL_SECONDS: '2',
        JOB_KEEP_COMPLETED_SECONDS: '2',
        JOB_KEEP_FAILED_SECONDS: '2',
      },
    });
    stack.startWorker({ WORKER_CONCURRENCY: '8' });
    const s = stack;
    const redis = new IORedis(url);
    const conn = bullConnection(url, 'queue');
    const csvJobs = new Queue(QUEUES.csvJobs, { connection: conn, prefix: bullPrefix(s.prefix) });
    const maintenance = new Queue(QUEUES.maintenance, { connection: conn, prefix: bullPrefix(s.prefix) });
    const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]);
    const keys = () => redis.keys(`${s.prefix}*`);
    try {
      await poll('the worker to listen', async () =>
        (await csvJobs.getWorkers()).length > 0 ? true : undefined,
      );
      await maintenance.waitUntilReady();
      const baseline = { memory: await usedMemory(), keys: (await keys()).length };

      const N = 1000;
      const uploads = new EphemeralStore(redis, s.prefix, 15);
      const producer = new JobProducer({ [QUEUES.csvJobs]: csvJobs });
      const t0 = Date.now();
      for (let i = 0; i < N; i++) {
        const w = uploads.createWriter('upload', s.userId, `small-${i}.csv`);
        await w.write(
          Buffer.from(
            `Booking Date,Customer Name,Amount\n2024-01-02,csvmarker-${i},"1,5"\n2024-01-03,csvmarker-${i}b,"2,5"\n`,
          ),
        );
        await w.commit({
          type: 'data',
          headers: DATA_HEADERS,
          rowCount: 2,
          delimiter: ',',
          encoding: 'utf-8',
          headerRow: 1,
        });
        await producer.enqueue(QUEUES.csvJobs, 'process-csv', {
          userId: s.userId,
          dataFileId: w.id,
          templateFileId: 'virtual',
          templateHeaders: ['Date', 'Customer', 'Amount'],
          mappings: MAPPINGS,
          maxRows: 2,
          totalRows: 2,
          dataFilename: `small-${i}.csv`,
          fileSizeBytes: 80,
        });
      }
      const counts = await poll(
        '1,000 jobs to finish',
        async () => {
          const c = await csvJobs.getJobCounts('completed', 'failed');
          return c.completed + c.failed >= N ? c : undefined;
        },
        40_000,
      );
      const busy = {
        memory: await usedMemory(),
        keys: (await keys()).length,
        seconds: (Date.now() - t0) / 1000,
      };
      expect(counts).toEqual({ completed: N, failed: 0 });
      const usage = await s.pg.query('SELECT count(*)::int AS n FROM usage_history');
      expect(usage.rows[0].n).toBe(N);

      // Uploads (15 s) and results (2 s) expire by TTL; the hourly cleanup trims finished jobs (2 s here).
      await poll(
        'every blob to expire',
        async () => ((await redis.keys(`${s.prefix}*blob:*`)).length === 0 ? true : undefined),
        30_000,
      );
      const cleanup = await maintenance.add('cleanup', {});
      await poll('the cleanup job', async () =>
        (await cleanup.getState()) === 'completed' ? true : undefined,
      );
      const after = { memory: await usedMemory(), keys: await keys() };
      console.log(
        `1,000 jobs in ${busy.seconds.toFixed(1)} s; Redis used_memory baseline ${(baseline.memory / 1048576).toFixed(2)} MB ` +
          `(${baseline.keys} keys), after the jobs ${(busy.memory / 1048576).toFixed(2)} MB (${busy.keys} keys), ` +
          `after TTL + cleanup ${(after.memory / 1048576).toFixed(2)} MB (${after.keys.length} keys)`,
      );
      expect(await csvJobs.getJobCounts('completed', 'failed')).toEqual({ completed: 0, failed: 0 });

      // No CSV content anywhere under the prefix (values of every key, whatever its type).
      for (const key of after.keys) {
        const type = await redis.type(key);
        const dump =
          type === 'string'
            ? await redis.get(key)
            : type === 'list'
              ? (await redis.lrange(key, 0, -1)).join('\n')
              : type === 'hash'
                ? JSON.stringify(await redis.hgetall(key))
                : type === 'set'
                  ? (await redis.smembers(key)).join('\n')
                  : type === 'zset'
                    ? (await redis.zrange(key, 0, -1)).join('\n')
                    : type === 'stream'
                      ? JSON.stringify(await redis.xrange(key, '-', '+'))
                      : '';
        expect({ key, hasCsv: (dump ?? '').includes('csvmarker') }).toEqual({ key, hasCsv: false });
      }
      // Near baseline: what remains is bounded bookkeeping (BullMQ's capped event streams, metrics).
      expect(after.keys.length).toBeLessThan(baseline.keys + 20);
      expect(after.memory - baseline.memory).toBeLessThan(2.5 * 1048576);
    } finally {
      await csvJobs.close();
      await maintenance.close();
      redis.disconnect();
    }
  });
});
