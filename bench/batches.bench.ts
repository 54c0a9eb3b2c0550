// `npm run bench:batches` (needs `npm run build:server` first; never part of npm test).
// A bulk upload of 20 data files × 100,000 rows through the real api and one worker: upload the 20 files,
// POST /api/batches, wait for every file, download the ZIP; time per phase, peak RSS of api and worker,
// Redis peak memory, and the ZIP's size.
import { type ChildProcess } from 'node:child_process';
import { openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { BENCH_MAPPINGS, generate } from './engine/generate';
import { rssMb, startStack } from './support/stack';

const FILES = Number(process.env.BATCH_FILES ?? 20);
const ROWS = Number(process.env.BATCH_ROWS ?? 100_000);
const MAPPINGS = BENCH_MAPPINGS;

function watchPeaks(api: ChildProcess, workers: ChildProcess[], redis: IORedis) {
  const peaks = { api: 0, worker: 0, redisMb: 0 };
  const timer = setInterval(async () => {
    peaks.api = Math.max(peaks.api, rssMb(api.pid as number));
    peaks.worker = Math.max(peaks.worker, ...workers.map((w) => rssMb(w.pid as number)));
    const info = await redis.info('memory');
    peaks.redisMb = Math.max(peaks.redisMb, Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0) / 1048576);
  }, 100);
  return { peaks, stop: () => clearInterval(timer) };
}

async function main(): Promise<void> {
  const stack = await startStack({ workers: 1 });
  const { api, workers, call, upload } = stack;
  const redis = new IORedis(stack.redisUrl);
  const file = join(tmpdir(), `csvm-bench-batch-${process.pid}.csv`);
  try {
    const gen = await generate(file, ROWS);
    console.log(
      `${FILES} files × ${gen.rows.toLocaleString()} rows (${(gen.bytes / 1e6).toFixed(1)} MB each)`,
    );
    const watch = watchPeaks(api, workers, redis);
    const t0 = performance.now();
    const tpl = await upload(
      'template',
      new Blob([MAPPINGS.map((m) => m.templateColumn).join(',') + '\n']),
      't.csv',
    );
    const ids: string[] = [];
    for (let i = 0; i < FILES; i++) ids.push(await upload('data', await openAsBlob(file), `part-${i}.csv`));
    const t1 = performance.now();
    const created = (await (
      await call('/api/batches', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ templateFileId: tpl, dataFileIds: ids, mappings: MAPPINGS }),
      })
    ).json()) as { batchId: string; jobs: unknown[]; rejected: unknown[] };
    if (!created.batchId) throw new Error(`batch refused: ${JSON.stringify(created)}`);
    let view: {
      state: string;
      totals: { completed: number; rowsProcessed: number };
      resultZipUrl: string | null;
    };
    do {
      await new Promise((r) => setTimeout(r, 200));
      view = (await (await call(`/api/batches/${created.batchId}`)).json()) as typeof view;
    } while (view.state !== 'completed');
    const t2 = performance.now();
    const res = await call(view.resultZipUrl as string);
    let bytes = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    const t3 = performance.now();
    watch.stop();
    const s = (a: number, b: number) => ((b - a) / 1000).toFixed(2);
    console.table({
      'upload 20 files': { seconds: s(t0, t1) },
      'batch (all jobs)': {
        seconds: s(t1, t2),
        'rows/s': Math.round(view.totals.rowsProcessed / ((t2 - t1) / 1000)),
      },
      'ZIP download': { seconds: s(t2, t3), MB: (bytes / 1e6).toFixed(1) },
      total: { seconds: s(t0, t3) },
    });
    console.log(
      `files completed ${view.totals.completed}/${FILES}, rows ${view.totals.rowsProcessed.toLocaleString()} | ` +
        `peak RSS api ${watch.peaks.api.toFixed(0)} MB, worker ${watch.peaks.worker.toFixed(0)} MB | ` +
        `Redis peak ${watch.peaks.redisMb.toFixed(0)} MB`,
    );
  } finally {
    rmSync(file, { force: true });
    redis.disconnect();
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
