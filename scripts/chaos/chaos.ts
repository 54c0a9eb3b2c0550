// `npm run chaos` (issue 28; never part of npm test): the built api and two workers against a Postgres and
// a Redis of their own (temp dirs, own ports, AOF on), ten background jobs per scenario, and one thing
// broken at a time: Redis restarted from its AOF, Postgres down 5 s and 60 s, a worker SIGTERMed or
// SIGKILLed (a new one started), the api SIGKILLed during an upload (a new one started). Checks that every
// job completed, usage was counted once per written row (usage_history and users.monthly_rows_used), one
// `job.completed` per job reached a local receiver, and how long until the api answered again.
// CHAOS_ROWS (default 50000) rows per job; CHAOS_SCENARIOS=redis,pg5 runs only those.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { OwnPostgres, PG_BIN } from '../../bench/support/own-postgres';
import { exited, freePort, startStack, type Stack } from '../../bench/support/stack';

const root = resolve(__dirname, '../..');
const ROWS = Number(process.env.CHAOS_ROWS ?? 50_000);
const JOBS = 10;
const ONLY = (process.env.CHAOS_SCENARIOS ?? '').split(',').filter(Boolean);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => console.log(`[chaos ${new Date().toISOString().slice(11, 19)}] ${line}`);

// ---- Postgres and Redis of our own ------------------------------------------------------------------

class OwnRedis {
  readonly dir = mkdtempSync(join(tmpdir(), 'csvm-chaos-redis-'));
  private proc: ChildProcess | undefined;
  constructor(readonly port: number) {}
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }
  async start(): Promise<void> {
    this.proc = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--appendonly',
        'yes',
        '--save',
        '',
        '--dir',
        this.dir,
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i++) {
      try {
        execFileSync('redis-cli', ['-p', String(this.port), 'ping'], { stdio: 'ignore' });
        return;
      } catch {
        await sleep(100);
      }
    }
    throw new Error('redis-server did not start');
  }
  async stop(): Promise<void> {
    if (!this.proc) return;
    this.proc.kill('SIGTERM');
    await exited(this.proc);
    this.proc = undefined;
  }
  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

// ---- a webhook receiver ---------------------------------------------------------------------------

interface Delivery {
  id: string;
  type: string;
  jobId: string;
}
async function startReceiver(): Promise<{ port: number; deliveries: Delivery[]; close(): void }> {
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          type: string;
          data: { jobId?: string };
        };
        const h: IncomingHttpHeaders = req.headers;
        deliveries.push({ id: String(h['webhook-id']), type: body.type, jobId: body.data.jobId ?? '' });
      } catch {
        // not ours
      }
      res.writeHead(200).end('{"ok":true}');
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  return { port, deliveries, close: () => server.close() };
}

// ---- the stack and the jobs -----------------------------------------------------------------------

const TEMPLATE = 'Date,Customer,Amount\n';
const MAPPINGS = [
  {
    templateColumn: 'Date',
    dataColumn: 'Booking Date',
    transform: { kind: 'date', input: 'auto', output: 'MM/DD/YYYY' },
  },
  { templateColumn: 'Customer', dataColumn: 'Customer Name' },
  { templateColumn: 'Amount', dataColumn: 'Amount', transform: { kind: 'number', decimalSeparator: ',' } },
];
function dataCsv(rows: number): string {
  const parts = ['Booking Date,Customer Name,Amount\n'];
  for (let i = 0; i < rows; i++)
    parts.push(`2024-01-${String((i % 28) + 1).padStart(2, '0')},Kunde ${i},"${i},50"\n`);
  return parts.join('');
}

interface Ctx {
  stack: Stack;
  pg: OwnPostgres;
  redis: OwnRedis;
  /** The api process now serving (a scenario may replace it). */
  api: ChildProcess;
  apiEnv: NodeJS.ProcessEnv;
  templateId: string;
}

async function healthy(base: string): Promise<boolean> {
  try {
    return (await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(3000) })).ok;
  } catch {
    return false;
  }
}

/** A signed-in request that gives up after 15 s (a hung answer is an answer too: null). */
async function call(ctx: Ctx, path: string, init: RequestInit = {}): Promise<Response | null> {
  return ctx.stack.call(path, { ...init, signal: AbortSignal.timeout(15_000) }).catch(() => null);
}

/** Ms from `from` until the api is healthy and serves a signed-in request (null: not within 5 minutes). */
async function timeUntilServing(ctx: Ctx, from: number): Promise<number | null> {
  let lastLog = Date.now();
  for (;;) {
    const ok = await healthy(ctx.stack.base);
    const r = ok ? await call(ctx, '/api/jobs') : null;
    if (r?.status === 200) return Date.now() - from;
    const last = `health ${ok ? 'ok' : 'not ok'}, GET /api/jobs ${r ? `${r.status} ${(await r.text()).slice(0, 200)}` : '-'}`;
    if (Date.now() - lastLog > 5_000) {
      lastLog = Date.now();
      log(`  still waiting for the api: ${last}`);
    }
    if (Date.now() - from > 300_000) return null;
    await sleep(100);
  }
}

async function submitJobs(ctx: Ctx): Promise<string[]> {
  const csv = new Blob([dataCsv(ROWS)]);
  // One upload per job (the same request twice is one job: the api de-duplicates double submits), all of
  // them before any job is submitted, and the jobs at once: the fault then finds them running and queued.
  const dataIds: string[] = [];
  for (let i = 0; i < JOBS; i++) dataIds.push(await ctx.stack.upload('data', csv, `export-${i}.csv`));
  return Promise.all(dataIds.map((dataId) => submitJob(ctx, dataId)));
}

async function submitJob(ctx: Ctx, dataId: string): Promise<string> {
  const res = await ctx.stack.call('/api/process', {
    signal: AbortSignal.timeout(30_000),
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      templateFileId: ctx.templateId,
      dataFileId: dataId,
      mappings: MAPPINGS,
      async: true,
    }),
  });
  if (res.status !== 202) throw new Error(`process: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { jobId: string }).jobId;
}

interface JobView {
  state: string;
  rowsProcessed: number;
  error: string | null;
}
async function views(ctx: Ctx, ids: string[]): Promise<Map<string, JobView>> {
  const out = new Map<string, JobView>();
  await Promise.all(
    ids.map(async (id) => {
      const r = await call(ctx, `/api/jobs/${id}`);
      if (r?.status === 200) out.set(id, (await r.json()) as JobView);
    }),
  );
  return out;
}

/** Waits until every job has ended (or 5 minutes); their last views. */
async function allEnded(ctx: Ctx, ids: string[]): Promise<Map<string, JobView>> {
  const end = Date.now() + 300_000;
  for (;;) {
    const v = await views(ctx, ids);
    const ended = [...v.values()].filter((x) => ['completed', 'failed', 'cancelled'].includes(x.state));
    if (ended.length === ids.length || Date.now() > end) return v;
    await sleep(500);
  }
}

/** Waits until at least one job reports progress, so the fault hits jobs mid-flight. */
async function someRunning(ctx: Ctx, ids: string[]): Promise<void> {
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    const v = await views(ctx, ids);
    if ([...v.values()].some((x) => x.state === 'active' && x.rowsProcessed > 0)) return;
    await sleep(100);
  }
}

interface Row {
  scenario: string;
  inFlight?: string;
  during?: string;
  jobs: string;
  usage: string;
  webhooks: string;
  back: string;
  done: string;
}

async function check(
  ctx: Ctx,
  scenario: string,
  ids: string[],
  deliveries: Delivery[],
  backMs: number | null | undefined,
  faultAt: number,
): Promise<Row> {
  const v = await allEnded(ctx, ids);
  const doneMs = Date.now() - faultAt;
  const completed = ids.filter((id) => v.get(id)?.state === 'completed');
  const failed = ids.filter((id) => v.get(id)?.state === 'failed');
  const written = completed.reduce((s, id) => s + (v.get(id)?.rowsProcessed ?? 0), 0);
  const usage = (
    await ctx.stack.pg.query(
      'SELECT count(*)::int AS n, count(DISTINCT job_id)::int AS jobs, COALESCE(sum(rows_processed), 0)::bigint AS rows FROM usage_history WHERE job_id = ANY($1)',
      [ids],
    )
  ).rows[0] as { n: number; jobs: number; rows: string };
  // Webhooks can trail completion by a moment (and by a retry after an outage).
  const end = Date.now() + 60_000;
  const perJob = () =>
    ids.map(
      (id) =>
        new Set(deliveries.filter((d) => d.type === 'job.completed' && d.jobId === id).map((d) => d.id)),
    );
  while (perJob().some((s, i) => s.size === 0 && completed.includes(ids[i])) && Date.now() < end)
    await sleep(250);
  const sets = perJob();
  const once = sets.filter((s) => s.size === 1).length;
  const extra = deliveries.filter((d) => d.type === 'job.completed' && ids.includes(d.jobId)).length - once;
  const usageOk = usage.n === completed.length && Number(usage.rows) === written;
  for (const id of failed) log(`  job ${id} failed: ${v.get(id)?.error}`);
  return {
    scenario,
    jobs: `${completed.length}/${ids.length} done${failed.length ? `, ${failed.length} failed` : ''}`,
    usage: usageOk
      ? `once (${written.toLocaleString('en')} rows)`
      : `**${Number(usage.rows).toLocaleString('en')} counted in ${usage.n} rows for ${written.toLocaleString('en')} written**`,
    webhooks: `${once}/${ids.length} once${extra ? ` (+${extra} repeated deliveries)` : ''}`,
    back:
      backMs === undefined
        ? '0 s (api not down)'
        : backMs === null
          ? '**not within 5 min**'
          : `${(backMs / 1000).toFixed(1)} s`,
    done: `${(doneMs / 1000).toFixed(1)} s`,
  };
}

function restartApi(ctx: Ctx): void {
  ctx.api = spawn(process.execPath, [join(root, 'dist/apps/api/src/main.js')], {
    cwd: root,
    env: ctx.apiEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Each scenario: breaks one thing while ten jobs run; returns when the fault is over and the time it ended. */
const SCENARIOS: Array<{
  key: string;
  name: string;
  run(ctx: Ctx): Promise<{ faultEnd: number; apiDown: boolean }>;
}> = [
  {
    key: 'redis',
    name: 'Redis restarted from its AOF after 5 s',
    async run(ctx) {
      await ctx.redis.stop();
      await sleep(5000);
      await ctx.redis.start();
      return { faultEnd: Date.now(), apiDown: true };
    },
  },
  {
    key: 'pg5',
    name: 'Postgres stopped 5 s',
    async run(ctx) {
      ctx.pg.stop();
      await sleep(5000);
      ctx.pg.start();
      return { faultEnd: Date.now(), apiDown: true };
    },
  },
  {
    key: 'pg60',
    name: 'Postgres stopped 60 s',
    async run(ctx) {
      ctx.pg.stop();
      await sleep(60_000);
      ctx.pg.start();
      return { faultEnd: Date.now(), apiDown: true };
    },
  },
  {
    key: 'sigterm',
    name: 'SIGTERM worker, new one started (a deploy)',
    async run(ctx) {
      const w = ctx.stack.workers.find((p) => p.exitCode === null && p.signalCode === null) as ChildProcess;
      w.kill('SIGTERM');
      ctx.stack.startWorker();
      await exited(w);
      return { faultEnd: Date.now(), apiDown: false };
    },
  },
  {
    key: 'sigkill',
    name: 'SIGKILL worker, new one started',
    async run(ctx) {
      const w = ctx.stack.workers.find((p) => p.exitCode === null && p.signalCode === null) as ChildProcess;
      w.kill('SIGKILL');
      await exited(w);
      ctx.stack.startWorker();
      return { faultEnd: Date.now(), apiDown: false };
    },
  },
  {
    key: 'api',
    name: 'SIGKILL api during a 60 MB upload, new one started',
    async run(ctx) {
      const big = new Blob([dataCsv(2_000_000)]);
      const form = new FormData();
      form.append('type', 'data');
      form.append('file', big, 'big.csv');
      const upload = ctx.stack.call('/api/upload', { method: 'POST', body: form }).catch((e: Error) => e);
      await sleep(400);
      ctx.api.kill('SIGKILL');
      await exited(ctx.api);
      const killedAt = Date.now();
      log(`  upload of ${(big.size / 1e6).toFixed(0)} MB: ${String(await upload)}`);
      restartApi(ctx);
      return { faultEnd: killedAt, apiDown: true };
    },
  },
];

async function main(): Promise<void> {
  const pg = new OwnPostgres(await freePort(), {
    tmpPrefix: 'csvm-chaos-pg-',
    initdbArgs: ['-E', 'UTF8'],
    serverSettings: '-c max_connections=200',
  });
  pg.start();
  const redis = new OwnRedis(await freePort());
  await redis.start();
  let stack: Stack | undefined;
  let ctx: Ctx | undefined;
  // Whatever happens, our Postgres (a daemon), Redis, api and workers do not outlive the run.
  const abort = (why: string) => {
    log(`stopping: ${why}`);
    for (const p of [ctx?.api, stack?.api, ...(stack?.workers ?? [])])
      if (p?.exitCode === null) p.kill('SIGKILL');
    try {
      pg.destroy();
    } catch {
      // best effort
    }
    void redis.destroy().finally(() => process.exit(2));
  };
  process.once('SIGINT', () => abort('SIGINT'));
  process.once('SIGTERM', () => abort('SIGTERM'));
  const limit = setTimeout(
    () => abort('CHAOS_TIMEOUT_MS passed'),
    Number(process.env.CHAOS_TIMEOUT_MS ?? 1_800_000),
  );
  limit.unref();
  const receiver = await startReceiver();
  log(
    `own Postgres on ${pg.port} (${PG_BIN}), Redis on ${redis.port} (AOF), ${JOBS} jobs x ${ROWS} rows per scenario`,
  );
  process.env.DATABASE_URL = pg.url;
  const extraEnv = {
    WEBHOOK_ALLOWED_IPS: `127.0.0.1:${receiver.port}`,
    WEBHOOK_RETRY_SCALE: '0.01',
    // The api SIGKILL scenario uploads 60 MB into the memory store.
    MEMORY_STORE_MAX_FILE_MB: '200',
  };
  const rows: Row[] = [];
  try {
    stack = await startStack({ workers: 2, redisUrl: redis.url, env: extraEnv });
    stack.pg.on('error', () => undefined);
    const apiEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...extraEnv,
      PORT: new URL(stack.base).port,
      DATABASE_URL: `postgres://postgres@127.0.0.1:${pg.port}/${stack.pg.database}`,
      REDIS_URL: redis.url,
      REDIS_PREFIX: stack.prefix,
      LOG_LEVEL: 'warn',
      ENABLE_CRON: '0',
      REGISTRATIONS_PER_IP_PER_HOUR: '1000',
    };
    const templateId = await stack.upload('template', new Blob([TEMPLATE]), 'template.csv');
    const hook = await stack.call('/api/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        url: `http://127.0.0.1:${receiver.port}/hook`,
        events: ['job.completed', 'job.failed'],
      }),
    });
    if (hook.status !== 201) throw new Error(`webhook endpoint: ${hook.status} ${await hook.text()}`);
    ctx = { stack, pg, redis, api: stack.api, apiEnv, templateId };
    for (const s of SCENARIOS) {
      if (ONLY.length && !ONLY.includes(s.key)) continue;
      log(`scenario: ${s.name}`);
      const ids = await submitJobs(ctx);
      await someRunning(ctx, ids);
      const before = [...(await views(ctx, ids)).values()];
      const count = (state: string) => before.filter((v) => v.state === state).length;
      const inFlight = `${count('active')} running, ${count('queued')} queued`;
      const faultAt = Date.now();
      // What a client saw meanwhile: GET /api/jobs every 500 ms (status, or no answer within 3 s).
      const answers = new Map<string, number>();
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const r = await (ctx as Ctx).stack
            .call('/api/jobs', { signal: AbortSignal.timeout(3000) })
            .catch((e: Error) => (e.name === 'TimeoutError' ? 'hung' : 'refused'));
          const key = typeof r === 'string' ? r : String(r.status);
          answers.set(key, (answers.get(key) ?? 0) + 1);
          await sleep(500);
        }
      })();
      const { faultEnd, apiDown } = await s.run(ctx);
      sampling = false;
      await sampler;
      const during = [...answers].map(([k, n]) => `${k}×${n}`).join(', ');
      log(`  fault over; waiting for the api and the jobs`);
      const back = apiDown ? await timeUntilServing(ctx, faultEnd) : undefined;
      await reconnectPg(ctx);
      const row = {
        ...(await check(ctx, s.name, ids, receiver.deliveries, back, faultAt)),
        inFlight,
        during,
      };
      log(`  ${JSON.stringify(row)}`);
      rows.push(row);
    }
  } finally {
    if (ctx && ctx.api !== stack?.api && ctx.api.exitCode === null) {
      ctx.api.kill('SIGTERM');
      await exited(ctx.api);
    }
    await stack?.stop().catch((e: Error) => log(`stack stop: ${e.message}`));
    receiver.close();
    await redis.destroy();
    pg.destroy();
  }
  console.log(`\n${JOBS} background jobs of ${ROWS.toLocaleString('en')} rows in flight per scenario:\n`);
  console.log(
    '| scenario | jobs when broken | jobs | usage counted | job.completed webhooks | GET /api/jobs meanwhile | service back | all ended after |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows)
    console.log(
      `| ${r.scenario} | ${r.inFlight} | ${r.jobs} | ${r.usage} | ${r.webhooks} | ${r.during} | ${r.back} | ${r.done} |`,
    );
  const bad = rows.filter((r) => !r.jobs.startsWith(`${JOBS}/${JOBS} done`) || !r.usage.startsWith('once'));
  if (bad.length) {
    console.log(`\n${bad.length} scenario(s) lost or miscounted jobs.`);
    process.exitCode = 1;
  }
}

/** The stack's pg client dies with a Postgres stop: replace it with a fresh connection. */
async function reconnectPg(ctx: Ctx): Promise<void> {
  try {
    await ctx.stack.pg.query('SELECT 1');
    return;
  } catch {
    // reconnect below
  }
  const { Client } = await import('pg');
  const old = ctx.stack.pg;
  const fresh = new Client({ connectionString: ctx.apiEnv.DATABASE_URL });
  fresh.on('error', () => undefined);
  await fresh.connect();
  ctx.stack.pg = fresh;
  await old.end().catch(() => undefined);
}

main().catch((err) => {
  console.error('chaos:', err);
  process.exit(1);
});
