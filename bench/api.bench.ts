// `npm run bench:api` (needs `npm run build:server` first; never part of npm test).
// p50/p95/p99 of POST /api/process for a 10,000-row file, and the api's peak RSS while 4 uploads of 25 MB
// run at once. Targets (issue 5): p95 ≤ 150 ms, RSS ≤ 300 MB.
import { openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from './engine/generate';
import { rssMb, startStack } from './support/stack';

const MAPPINGS = [
  {
    templateColumn: 'Date',
    dataColumn: 'Booking Date',
    transform: { kind: 'date', input: 'DD/MM/YYYY', output: 'MM/DD/YYYY' },
  },
  { templateColumn: 'Customer', dataColumn: 'Customer Name' },
  { templateColumn: 'Amount', dataColumn: 'Betrag', transform: { kind: 'amount' } },
  { templateColumn: 'Email', dataColumn: 'E-mail' },
];

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function main(): Promise<void> {
  const stack = await startStack();
  const { call, upload, api } = stack;
  const files: string[] = [];
  try {
    const small = join(tmpdir(), `csvm-api-bench-10k-${process.pid}.csv`);
    files.push(small);
    await generate(small, 10_000);
    const tpl = await upload('template', new Blob(['Date,Customer,Amount,Email\n']), 'template.csv');
    const data = await upload('data', await openAsBlob(small), 'data.csv');
    const body = JSON.stringify({ templateFileId: tpl, dataFileId: data, mappings: MAPPINGS });
    const once = async () => {
      const t = performance.now();
      const res = await call('/api/process', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`process: ${res.status}`);
      return performance.now() - t;
    };
    for (let i = 0; i < 10; i++) await once(); // warm-up
    const times: number[] = [];
    const started = performance.now();
    const N = 200;
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < N) {
          next += 1;
          times.push(await once());
        }
      }),
    );
    const wall = (performance.now() - started) / 1000;
    times.sort((a, b) => a - b);
    console.table({
      'POST /api/process (10,000 rows, concurrency 4)': {
        requests: times.length,
        'p50 ms': pct(times, 50).toFixed(1),
        'p95 ms': pct(times, 95).toFixed(1),
        'p99 ms': pct(times, 99).toFixed(1),
        'req/s': (times.length / wall).toFixed(1),
      },
    });

    const big = join(tmpdir(), `csvm-api-bench-25mb-${process.pid}.csv`);
    files.push(big);
    await generate(big, Infinity, 25 * 1024 * 1024);
    let peak = rssMb(api.pid as number);
    const before = peak;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(api.pid as number))), 50);
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 4 }, async (_, i) => upload('data', await openAsBlob(big), `big-${i}.csv`)),
    );
    clearInterval(sampler);
    console.log(
      `4 concurrent 25 MB uploads: ${((performance.now() - t0) / 1000).toFixed(2)} s; api RSS before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB`,
    );
  } finally {
    for (const f of files) rmSync(f, { force: true });
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
