// `npm run bench:jobs` (needs `npm run build:server` first; never part of npm test).
// A 1,000,000-row (~120 MB) file: upload → async process → download through the real api and worker,
// once per BlobStore driver (BENCH_DRIVERS=memory,s3; s3 on an in-process S3 server), timed per phase
// with peak RSS of api and worker and Redis memory. Then 2 workers and 10 concurrent
// 100k-row jobs: all must complete, each recorded exactly once.
import { type ChildProcess } from 'node:child_process';
import { openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { BENCH_MAPPINGS, generate } from './engine/generate';
import { spawnS3TestServer } from '../scripts/s3-test-server';
import { rssMb, startStack } from './support/stack';

const MAPPINGS = BENCH_MAPPINGS;
const TEMPLATE = MAPPINGS.map((m) => m.templateColumn);

class Peaks {
  api = 0;
  workers = 0;
  redisMb = 0;
  private timer: NodeJS.Timeout;
  constructor(api: ChildProcess, workers: ChildProcess[], redis: IORedis) {
    this.timer = setInterval(async () => {
      this.api = Math.max(this.api, rssMb(api.pid as number));
      this.workers = Math.max(this.workers, ...workers.map((w) => rssMb(w.pid as number)));
      const info = await redis.info('memory');
      const used = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0) / 1048576;
      this.redisMb = Math.max(this.redisMb, used);
    }, 100);
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

type Driver = 'memory' | 's3';

/** One 1M-row job through the real api and worker with the given BlobStore driver. */
async function oneJob(
  driver: Driver,
  file: string,
  bytes: number,
): Promise<Awaited<ReturnType<typeof startStack>>> {
  // The S3 server runs in a process of its own, as a real one would.
  const s3 = driver === 's3' ? await spawnS3TestServer() : null;
  // The memory driver refuses files over MEMORY_STORE_MAX_FILE_MB (100 by default): raised for this file.
  // The concurrent part sends 10 uploads from this one address: UPLOADS_PER_IP (4) is lifted for it.
  const env = {
    MEMORY_STORE_MAX_FILE_MB: '256',
    UPLOADS_PER_IP: '20',
    ...(s3 ? s3.env : { BLOB_STORE: 'memory' }),
  };
  const stack = await startStack({ workers: 1, env });
  const { api, workers, call, upload } = stack;
  const redis = new IORedis(stack.redisUrl);
  const base = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1] ?? 0) / 1048576;
  const peaks = new Peaks(api, workers, redis);
  try {
    const t0 = performance.now();
    const tpl = await upload('template', new Blob([TEMPLATE.join(',') + '\n']), 'template.csv');
    const data = await upload('data', await openAsBlob(file), 'big.csv');
    const t1 = performance.now();
    const queued = (await (
      await call('/api/process', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ templateFileId: tpl, dataFileId: data, mappings: MAPPINGS, async: true }),
      })
    ).json()) as { jobId: string };
    let view: { state: string; rowsProcessed: number; resultUrl: string | null; error: string | null };
    do {
      await new Promise((r) => setTimeout(r, 100));
      view = (await (await call(`/api/jobs/${queued.jobId}`)).json()) as typeof view;
    } while (view.state === 'queued' || view.state === 'active');
    const t2 = performance.now();
    if (view.state !== 'completed') throw new Error(`job ${view.state}: ${view.error}`);
    // With s3 the api answers 302 to a signed URL; fetch follows it to the S3 server.
    const res = await call(view.resultUrl as string);
    let out = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) out += chunk.length;
    const t3 = performance.now();
    peaks.stop();
    const sec = (a: number, b: number) => ((b - a) / 1000).toFixed(2);
    console.log(`\n== ${driver} driver`);
    console.table({
      upload: { seconds: sec(t0, t1), 'MB/s': (bytes / 1e6 / ((t1 - t0) / 1000)).toFixed(1) },
      process: { seconds: sec(t1, t2), 'MB/s': (bytes / 1e6 / ((t2 - t1) / 1000)).toFixed(1) },
      download: { seconds: sec(t2, t3), 'MB/s': (out / 1e6 / ((t3 - t2) / 1000)).toFixed(1) },
      total: { seconds: sec(t0, t3) },
    });
    console.log(
      `${driver}: rows ${view.rowsProcessed.toLocaleString()} | peak RSS api ${peaks.api.toFixed(0)} MB, worker ${peaks.workers.toFixed(0)} MB | Redis peak ${peaks.redisMb.toFixed(0)} MB (${(peaks.redisMb - base).toFixed(0)} MB above the ${base.toFixed(0)} MB before the run)`,
    );
    return stack;
  } catch (err) {
    await stack.stop();
    throw err;
  } finally {
    peaks.stop();
    redis.disconnect();
    if (s3) stacksToClose.push(() => s3.close());
  }
}

const stacksToClose: Array<() => Promise<void>> = [];

async function main(): Promise<void> {
  const drivers = (process.env.BENCH_DRIVERS ?? 'memory,s3').split(',') as Driver[];
  const file = join(tmpdir(), `csvm-bench-${process.pid}.csv`);
  let stack: Awaited<ReturnType<typeof startStack>> | null = null;
  try {
    const gen = await generate(file, 1_000_000);
    console.log(`generated ${gen.rows.toLocaleString()} rows, ${(gen.bytes / 1e6).toFixed(1)} MB`);
    for (const driver of drivers) {
      if (stack) await stack.stop();
      stack = await oneJob(driver, file, gen.bytes);
    }
    if (!stack || process.env.BENCH_SKIP_CONCURRENT === '1') return;
    const { pg, call, upload } = stack;
    const tpl = await upload('template', new Blob([TEMPLATE.join(',') + '\n']), 'template.csv');

    // 2 workers, 10 concurrent 100k-row jobs.
    stack.startWorker();
    await new Promise((r) => setTimeout(r, 2000));
    await pg.query('UPDATE users SET monthly_rows_used = 0');
    const small = join(tmpdir(), `csvm-bench-small-${process.pid}.csv`);
    await generate(small, 100_000);
    const t4 = performance.now();
    const ids = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const d = await upload('data', await openAsBlob(small), `part-${i}.csv`);
        const q = (await (
          await call('/api/process', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ templateFileId: tpl, dataFileId: d, mappings: MAPPINGS, async: true }),
          })
        ).json()) as { jobId: string };
        return q.jobId as string;
      }),
    );
    const states = await Promise.all(
      ids.map(async (id) => {
        for (;;) {
          const v = (await (await call(`/api/jobs/${id}`)).json()) as { state: string };
          if (v.state !== 'queued' && v.state !== 'active') return v.state as string;
          await new Promise((r) => setTimeout(r, 200));
        }
      }),
    );
    const usage = await pg.query(
      'SELECT count(*)::int AS n, count(DISTINCT job_id)::int AS d FROM usage_history WHERE job_id = ANY($1)',
      [ids],
    );
    console.log(
      `10 × 100k rows on 2 workers: ${((performance.now() - t4) / 1000).toFixed(2)} s, states ${JSON.stringify(
        states.reduce<Record<string, number>>((a, x) => ({ ...a, [x]: (a[x] ?? 0) + 1 }), {}),
      )}, usage rows ${usage.rows[0].n} (distinct jobs ${usage.rows[0].d})`,
    );
    rmSync(small, { force: true });
  } finally {
    rmSync(file, { force: true });
    await stack?.stop();
    for (const close of stacksToClose) await close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
