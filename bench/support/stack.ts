// Shared by the api and jobs benches and the worker's reliability tests: a fresh database and Redis
// prefix, the api (and workers) as real child processes on a free port, a signed-up enterprise user,
// and cleanup afterwards. Benches run the build (dist/); tests run the sources (run-ts.js, no build).
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
  prefix: string;
  base: string;
  userId: string;
  /** The signed-up user's session cookie (`name=value`). */
  cookie: string;
  call: Call;
  /** Starts one more worker process; `env` adds to (or overrides) the stack's environment. */
  startWorker(env?: Record<string, string>): ChildProcess;
  upload(type: 'template' | 'data', blob: Blob, name: string): Promise<string>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
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

/** Resolves when the process has exited (at once if it already has). */
export function exited(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  return new Promise((r) => p.once('exit', () => r()));
}

export interface StackOptions {
  workers?: number;
  /** Run apps/*\/src/main.ts through run-ts.js instead of the build in dist/ (tests). */
  fromSource?: boolean;
  /** Another Redis than REDIS_URL (e.g. a private one a test may restart). */
  redisUrl?: string;
  /** Extra environment for the api and the workers. */
  env?: Record<string, string>;
  /** Extra node flags for the api process (e.g. --cpu-prof to profile it). */
  apiNodeArgs?: string[];
}

/** Needs `npm run build:server` first, unless `fromSource`. */
export async function startStack({
  workers = 0,
  fromSource = false,
  redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  env: extraEnv = {},
  apiNodeArgs = [],
}: StackOptions = {}): Promise<Stack> {
  const baseDb = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/csvmapper';
  const dbName = `csvmapper_stack_${randomBytes(3).toString('hex')}`;
  const dbUrl = new URL(baseDb);
  dbUrl.pathname = `/${dbName}`;
  const db = (
    fromSource
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports
        require(join(root, 'libs/db/src/data-source-options'))
      : // eslint-disable-next-line @typescript-eslint/no-require-imports
        require(join(root, 'dist/libs/db/src/index.js'))
  ) as {
    ensureDatabase(u: string): Promise<boolean>;
    runMigrations(u: string): Promise<string[]>;
  };
  await db.ensureDatabase(dbUrl.toString());
  await db.runMigrations(dbUrl.toString());
  const prefix = `csvm-stack-${randomBytes(3).toString('hex')}:`;
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    LOG_LEVEL: 'warn',
    ENABLE_CRON: '0',
    REGISTRATIONS_PER_IP_PER_HOUR: '1000',
    ...extraEnv,
  };
  const start = (app: 'api' | 'worker', more: Record<string, string> = {}) =>
    spawn(
      process.execPath,
      [
        ...(app === 'api' ? apiNodeArgs : []),
        ...(fromSource
          ? [join(root, 'bench/support/run-ts.js'), `apps/${app}/src/main.ts`]
          : [join(root, `dist/apps/${app}/src/main.js`)]),
      ],
      { cwd: root, env: { ...env, ...more }, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  const api = start('api');
  const startWorker = (more: Record<string, string> = {}) => {
    const w = start('worker', more);
    stack.workers.push(w);
    return w;
  };
  const base = `http://127.0.0.1:${port}`;
  let up = false;
  for (let i = 0; i < 150 && !up && api.exitCode === null; i++) {
    up = await fetch(`${base}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (!up) await new Promise((r) => setTimeout(r, 200));
  }
  if (!up) {
    api.kill('SIGKILL');
    throw new Error('the api did not become healthy within 30 s');
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
  const [{ id: userId }] = (
    await pg.query(`UPDATE users SET plan = 'enterprise' WHERE username = $1 RETURNING id`, [username])
  ).rows as Array<{ id: string }>;
  const cookie = (reg.headers.get('set-cookie') ?? '').split(';')[0];
  const call: Call = (path, init = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { ...H, cookie, ...(init.headers ?? {}) } });

  const stack: Stack = {
    api,
    workers: [],
    pg,
    redisUrl,
    prefix,
    base,
    userId,
    cookie,
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
      const all = [api, ...stack.workers];
      for (const p of all) if (p.exitCode === null && p.signalCode === null) p.kill('SIGTERM');
      const gone = Promise.all(all.map(exited));
      const late = setTimeout(() => all.forEach((p) => p.exitCode === null && p.kill('SIGKILL')), 10_000);
      await gone;
      clearTimeout(late);
      await pg.end().catch(() => undefined);
      const admin = new Client({ connectionString: baseDb.replace(/\/[^/]*$/, '/postgres') });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      await admin.end();
      // Best effort: a test may have stopped this Redis already.
      const redis = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
      redis.on('error', () => undefined);
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
          cursor = next;
          if (keys.length) await redis.del(...keys);
        } while (cursor !== '0');
      } catch {
        // nothing to clean
      } finally {
        redis.disconnect();
      }
    },
  };
  for (let i = 0; i < workers; i++) startWorker();
  return stack;
}
