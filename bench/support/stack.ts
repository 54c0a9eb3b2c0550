// Shared by the api and jobs benches: a fresh database and Redis prefix, the built api (and workers)
// on a free port, a signed-up enterprise user, and cleanup afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import IORedis from 'ioredis';
import { Client } from 'pg';

const root = resolve(__dirname, '../..');
export const H = { 'X-Requested-With': 'csv-mapper' };

export type Call = (path: string, init?: RequestInit) => Promise<Response>;

export interface Stack {
  api: ChildProcess;
  workers: ChildProcess[];
  pg: Client;
  redisUrl: string;
  call: Call;
  startWorker(): ChildProcess;
  upload(type: 'template' | 'data', blob: Blob, name: string): Promise<string>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => res(p));
    });
  });
}

export function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Needs `npm run build:server` first. */
export async function startStack({ workers = 0 }: { workers?: number } = {}): Promise<Stack> {
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
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const prefix = `csvm-bench-${randomBytes(3).toString('hex')}:`;
  const port = await freePort();
  const env = {
    ...process.env,
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
  const startWorker = () => {
    const w = start('dist/apps/worker/src/main.js');
    stack.workers.push(w);
    return w;
  };
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${base}/api/health`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const pg = new Client({ connectionString: dbUrl.toString() });
  await pg.connect();

  // fetch keeps no cookies: the session cookie is passed by hand.
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
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  await pg.query(`UPDATE users SET plan = 'enterprise' WHERE username = $1`, [username]);
  const cookie = (reg.headers.get('set-cookie') ?? '').split(';')[0];
  const call: Call = (path, init = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { ...H, cookie, ...(init.headers ?? {}) } });

  const stack: Stack = {
    api,
    workers: [],
    pg,
    redisUrl,
    call,
    startWorker,
    async upload(type, blob, name) {
      const form = new FormData();
      form.append('type', type);
      form.append('file', blob, name);
      const res = await call('/api/upload', { method: 'POST', body: form });
      if (res.status !== 201) throw new Error(`upload ${type}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    },
    async stop() {
      for (const p of [api, ...stack.workers]) p.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 1500));
      await pg.end().catch(() => undefined);
      const admin = new Client({ connectionString: baseDb.replace(/\/[^/]*$/, '/postgres') });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      await admin.end();
      const redis = new IORedis(redisUrl);
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
      redis.disconnect();
    },
  };
  for (let i = 0; i < workers; i++) startWorker();
  return stack;
}
