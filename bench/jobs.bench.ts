// `npm run bench:jobs` (needs `npm run build:server` first; never part of npm test).
// A 1,000,000-row (~120 MB) file: upload → async process → download through the real api and worker,
// timed per phase with peak RSS of api and worker and Redis memory. Then 2 workers and 10 concurrent
// 100k-row jobs: all must complete, each recorded exactly once.
import { spawn, type ChildProcess } from 'node:child_process';
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

function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => res(p));
    });
  });
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

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
  const dbName = `csvmapper_bench_${randomBytes(3).toString('hex')}`;
  const baseDb = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/csvmapper';
  const dbUrl = new URL(baseDb);
  dbUrl.pathname = `/${dbName}`;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const db = require(join(root, 'dist/libs/db/src/index.js')) as {
    ensureDatabase(u: string): Promise<boolean>;
    runMigrations(u: string): Promise<string[]>;
  };
  await db.ensureDatabase(dbUrl.toString());
  await db.runMigrations(dbUrl.toString());
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const prefix = `csvm-bench-${randomBytes(3).toString('hex')}:`;
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    SESSION_SECRET: randomBytes(32).toString('hex'),
    PORT: String(port),
    DATABASE_URL: dbUrl.toString(),
    REDIS_PREFIX: prefix,
    LOG_LEVEL: 'warn',
    ENABLE_CRON: '0',
    REGISTRATIONS_PER_IP_PER_HOUR: '1000',
  };
  const start = (file: string) =>
    spawn(process.execPath, [join(root, file)], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const api = start('dist/apps/api/src/main.js');
  const workers = [start('dist/apps/worker/src/main.js')];
  const redis = new IORedis(redisUrl);
  const pg = new Client({ connectionString: dbUrl.toString() });
  const base = `http://127.0.0.1:${port}`;
  const file = join(tmpdir(), `csvm-bench-${process.pid}.csv`);
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
    // fetch keeps no cookies: the session cookie is passed by hand.
    const cookie = await signUp(base, pg);
    const call = (path: string, init: RequestInit = {}) =>
      fetch(`${base}${path}`, { ...init, headers: { ...H, cookie, ...(init.headers ?? {}) } });

    const gen = await generate(file, 1_000_000);
    console.log(`generated ${gen.rows.toLocaleString()} rows, ${(gen.bytes / 1e6).toFixed(1)} MB`);
    const peaks = new Peaks(api, workers, redis);

    const t0 = performance.now();
    const tpl = await upload(call, 'template', new Blob([TEMPLATE.join(',') + '\n']), 'template.csv');
    const data = await upload(call, 'data', await openAsBlob(file), 'big.csv');
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
    workers.push(start('dist/apps/worker/src/main.js'));
    await new Promise((r) => setTimeout(r, 2000));
    await pg.query('UPDATE users SET monthly_rows_used = 0');
    const small = join(tmpdir(), `csvm-bench-small-${process.pid}.csv`);
    await generate(small, 100_000);
    const t4 = performance.now();
    const ids = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const d = await upload(call, 'data', await openAsBlob(small), `part-${i}.csv`);
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
    for (const p of [api, ...workers]) p.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1500));
    await pg.end().catch(() => undefined);
    const admin = new Client({ connectionString: baseDb.replace(/\/[^/]*$/, '/postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
    redis.disconnect();
  }
}

async function signUp(base: string, pg: Client): Promise<string> {
  const username = `bench_${randomBytes(4).toString('hex')}`;
  const res = await fetch(`${base}/api/register`, {
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
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  await pg.query(`UPDATE users SET plan = 'enterprise' WHERE username = $1`, [username]);
  const set = res.headers.get('set-cookie') ?? '';
  return set.split(';')[0];
}

async function upload(
  call: (p: string, i?: RequestInit) => Promise<Response>,
  type: 'template' | 'data',
  blob: Blob,
  name: string,
): Promise<string> {
  const form = new FormData();
  form.append('type', type);
  form.append('file', blob, name);
  const res = await call('/api/upload', { method: 'POST', body: form });
  if (res.status !== 201) throw new Error(`upload ${type}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
