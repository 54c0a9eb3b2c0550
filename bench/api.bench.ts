// `npm run bench:api` (needs `npm run build` first; never part of npm test).
// 1. Wire sizes of '/' and its entry script with no, gzip and Brotli encoding (issue 16).
// 2. GET /api/user with a session against GET /api/health in the same run, 50 connections each: req/s,
//    p99 and the ratio. Targets (issue 16): ratio ≥ 0.8, user p99 ≤ 50 ms.
// 3. p50/p95/p99 of POST /api/process for a 10,000-row file, and the api's peak RSS while 4 uploads of 25 MB
//    run at once. Targets (issue 5): p95 ≤ 150 ms, RSS ≤ 300 MB.
// `npm run bench:api -- --quick` runs parts 1 and 2 only.
import { openAsBlob, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from './engine/generate';
import { load, type LoadResult } from './support/http-load';
import { H, rssMb, startStack, type Stack } from './support/stack';

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

/** Bytes on the wire for one GET (node:http never decodes, so this is what travels). */
function wireBytes(url: string, acceptEncoding?: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
    httpRequest(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () =>
        resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

async function wireSizes(base: string): Promise<void> {
  const html = await (await fetch(`${base}/`)).text();
  const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
  const rows: Record<string, Record<string, string>> = {};
  for (const path of ['/', ...(script ? [script] : [])]) {
    const row: Record<string, string> = {};
    for (const [label, accept] of [
      ['none', undefined],
      ['gzip', 'gzip'],
      ['br (browser)', 'gzip, deflate, br, zstd'],
    ] as const) {
      const { bytes, encoding } = await wireBytes(`${base}${path}`, accept);
      row[`${label} KB`] = `${(bytes / 1024).toFixed(1)} (${encoding})`;
    }
    rows[path] = row;
  }
  console.log('Wire sizes (Accept-Encoding → bytes sent, Content-Encoding):');
  console.table(rows);
}

/**
 * GET /api/user (session) against GET /api/health with the same settings. The machine's load drifts, so
 * the two alternate in ROUNDS short rounds after a warm-up, and the figures are the medians of the rounds.
 */
async function sessionVsHealth(stack: Stack): Promise<void> {
  const user = { ...H, cookie: stack.cookie };
  const check = await stack.call('/api/user');
  if (check.status !== 200) throw new Error(`GET /api/user: ${check.status}`);
  const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
  await load(`${stack.base}/api/health`, {}, 2);
  await load(`${stack.base}/api/user`, user, 2);
  const health: LoadResult[] = [];
  const session: LoadResult[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    health.push(await load(`${stack.base}/api/health`, {}, SECONDS));
    session.push(await load(`${stack.base}/api/user`, user, SECONDS));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const row = (rs: LoadResult[]) => ({
    'req/s (median)': median(rs.map((r) => r.rps)).toFixed(0),
    'p50 ms': median(rs.map((r) => r.p50)),
    'p99 ms': median(rs.map((r) => r.p99)),
    'req/s per round': rs.map((r) => r.rps.toFixed(0)).join(' '),
    'errors/non-2xx': `${rs.reduce((n, r) => n + r.errors, 0)}/${rs.reduce((n, r) => n + r.non2xx, 0)}`,
  });
  console.log(`50 connections, ${ROUNDS} alternating rounds of ${SECONDS} s:`);
  console.table({ 'GET /api/health': row(health), 'GET /api/user (session)': row(session) });
  const ratio = median(session.map((r, i) => r.rps / health[i].rps));
  const p99 = median(session.map((r) => r.p99));
  console.log(
    `session/health throughput ratio ${ratio.toFixed(2)} (median of rounds; target ≥ 0.80): ${ratio >= 0.8 ? 'met' : 'NOT met'}; ` +
      `session p99 ${p99} ms (target ≤ 50 ms): ${p99 <= 50 ? 'met' : 'NOT met'}`,
  );
}

async function main(): Promise<void> {
  const stack = await startStack();
  const { call, upload, api } = stack;
  const files: string[] = [];
  try {
    await wireSizes(stack.base);
    await sessionVsHealth(stack);
    if (process.argv.includes('--quick')) return;

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
