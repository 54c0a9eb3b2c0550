// `npm run bench:jobs` (needs `npm run build:server` first; never part of npm test).
// A 1,000,000-row (~120 MB) file: upload → async process → download through the real api and worker,
// timed per phase with peak RSS of api and worker and Redis memory. Then 2 workers and 10 concurrent
// 100k-row jobs: all must complete, each recorded exactly once.
import { type ChildProcess } from 'node:child_process';
import { openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { generate } from './engine/generate';
import { rssMb, startStack } from './support/stack';

const MAPPINGS = [
  {
    templateColumn: 'Transaction Date',
    dataColumn: 'Booking Date',
    transform: { kind: 'date', input: 'DD/MM/YYYY', output: 'MM/DD/YYYY' },
  },
  { templateColumn: 'Customer', dataColumn: 'Customer Name' },
  { templateColumn: 'Amount', dataColumn: 'Betrag', transform: { kind: 'number', decimalSeparator: ',' } },
  { templateColumn: 'Email', dataColumn: 'E-mail' },
  { templateColumn: 'SKU', dataColumn: 'Article Number' },
  { templateColumn: 'Note', dataColumn: 'Notes' },
];
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

async function main(): Promise<void> {
  const stack = await startStack({ workers: 1 });
  const { api, workers, pg, call, upload } = stack;
  const redis = new IORedis(stack.redisUrl);
  const file = join(tmpdir(), `csvm-bench-${process.pid}.csv`);
  try {
    const gen = await generate(file, 1_000_000);
    console.log(`generated ${gen.rows.toLocaleString()} rows, ${(gen.bytes / 1e6).toFixed(1)} MB`);
    const peaks = new Peaks(api, workers, redis);

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
    const res = await call(view.resultUrl as string);
    let bytes = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    const t3 = performance.now();
    peaks.stop();
    const s = (a: number, b: number) => ((b - a) / 1000).toFixed(2);
    console.table({
      upload: { seconds: s(t0, t1) },
      process: { seconds: s(t1, t2), 'worker MB/s': (gen.bytes / 1e6 / ((t2 - t1) / 1000)).toFixed(1) },
      download: { seconds: s(t2, t3), 'MB out': (bytes / 1e6).toFixed(1) },
      total: { seconds: s(t0, t3) },
    });
    console.log(
      `rows ${view.rowsProcessed.toLocaleString()} | peak RSS api ${peaks.api.toFixed(0)} MB, worker ${peaks.workers.toFixed(0)} MB | Redis peak ${peaks.redisMb.toFixed(0)} MB`,
    );

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
    redis.disconnect();
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
