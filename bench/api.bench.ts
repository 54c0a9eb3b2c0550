// `npm run bench:api` (needs `npm run build:server` first; never part of npm test).
// p50/p95/p99 of POST /api/process for a 10,000-row file, and the api's peak RSS while 4 uploads of 25 MB
// run at once. Targets (issue 5): p95 ≤ 150 ms, RSS ≤ 300 MB.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openAsBlob, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import IORedis from 'ioredis';
import { Client } from 'pg';
import { generate } from './engine/generate';

const root = resolve(__dirname, '..');
const H = { 'X-Requested-With': 'csv-mapper' };
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

const freePort = () =>
  new Promise<number>((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => res(p));
    });
  });

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function main(): Promise<void> {
  const baseDb = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/csvmapper';
  const dbName = `csvmapper_bench_${randomBytes(3).toString('hex')}`;
  const dbUrl = new URL(baseDb);
  dbUrl.pathname = `/${dbName}`;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const db = require(join(root, 'dist/libs/db/src/index.js')) as {
    ensureDatabase(u: string): Promise<boolean>;
    runMigrations(u: string): Promise<string[]>;
  };
  await db.ensureDatabase(dbUrl.toString());
  await db.runMigrations(dbUrl.toString());
  const prefix = `csvm-bench-${randomBytes(3).toString('hex')}:`;
  const port = await freePort();
  const api = spawn(process.execPath, [join(root, 'dist/apps/api/src/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: dbUrl.toString(),
      REDIS_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      REGISTRATIONS_PER_IP_PER_HOUR: '1000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const pg = new Client({ connectionString: dbUrl.toString() });
  const files: string[] = [];
  try {
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${base}/api/health`)
          .then((r) => r.ok)
          .catch(() => false)
      )
        break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await pg.connect();
    const username = `bench_${randomBytes(4).toString('hex')}`;
    const reg = await fetch(`${base}/api/register`, {
      method: 'POST',
      headers: { ...H, 'content-type': 'application/json' },
      body: JSON.stringify({
        username,
        email: `${username}@example.com`,
        password: 'Tr1cky-Mapper!',
        firstName: 'B',
        lastName: 'B',
      }),
    });
    const cookie = (reg.headers.get('set-cookie') ?? '').split(';')[0];
    await pg.query(`UPDATE users SET plan = 'enterprise' WHERE username = $1`, [username]);
    const call = (path: string, init: RequestInit = {}) =>
      fetch(`${base}${path}`, { ...init, headers: { ...H, cookie, ...(init.headers ?? {}) } });
    const upload = async (type: string, blob: Blob, name: string) => {
      const form = new FormData();
      form.append('type', type);
      form.append('file', blob, name);
      const res = await call('/api/upload', { method: 'POST', body: form });
      if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    };

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
    api.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    await pg.end().catch(() => undefined);
    const admin = new Client({ connectionString: baseDb.replace(/\/[^/]*$/, '/postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
    const redis = new IORedis(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
    let cursor = '0';
    do {
      const [n, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = n;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
    redis.disconnect();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
