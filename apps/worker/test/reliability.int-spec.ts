import type { ChildProcess } from 'node:child_process';
import IORedis from 'ioredis';
import { bullPrefix, EphemeralStore, QUEUES, slotKey } from '@csv-mapper/queue';
import { exited, freePort, startStack, type Stack } from '../../../bench/support/stack';
import { DATA_HEADERS, LOCK, MAPPINGS, poll, startPrivateRedis, TEMPLATE } from './support/reliability';

// Reliability with real processes: the api and worker run as child processes (from source, no build)
// against real Postgres and Redis; each test gets its own database, Redis prefix and processes.

jest.setTimeout(60_000);

function dataCsv(rows: number): string[] {
  const parts = [`${DATA_HEADERS.join(',')}\n`];
  for (let i = 0; i < rows; i++)
    parts.push(`2024-01-${String((i % 28) + 1).padStart(2, '0')},Kunde ${i},"${i},50"\n`);
  return parts;
}

/**
 * Large data files go straight into the ephemeral store with the record the upload endpoint would
 * write (uploading 500k rows through HTTP takes longer than processing them; the worker is under test).
 */
async function seedUpload(stack: Stack, rows: number): Promise<string> {
  const redis = new IORedis(stack.redisUrl);
  try {
    const w = new EphemeralStore(redis, stack.prefix).createWriter('upload', stack.userId, 'export.csv');
    const parts = dataCsv(rows);
    for (let i = 0; i < parts.length; i += 10_000)
      await w.write(Buffer.from(parts.slice(i, i + 10_000).join(''), 'utf8'));
    await w.commit({
      type: 'data',
      headers: DATA_HEADERS,
      rowCount: rows,
      delimiter: ',',
      encoding: 'utf-8',
      headerRow: 1,
    });
    return w.id;
  } finally {
    redis.disconnect();
  }
}

interface JobView {
  id: string;
  state: string;
  progress: number;
  rowsProcessed: number;
  error: string | null;
  resultUrl: string | null;
}

async function submit(stack: Stack, rows: number): Promise<string> {
  const tpl = await stack.upload('template', new Blob([TEMPLATE]), 'template.csv');
  const data =
    rows > 10_000
      ? await seedUpload(stack, rows)
      : await stack.upload('data', new Blob(dataCsv(rows)), 'export.csv');
  const res = await stack.call('/api/process', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ templateFileId: tpl, dataFileId: data, mappings: MAPPINGS, async: true }),
  });
  if (res.status !== 202) throw new Error(`process: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { jobId: string }).jobId;
}

const view = async (stack: Stack, id: string) =>
  (await (await stack.call(`/api/jobs/${id}`)).json()) as JobView;

const finished = (stack: Stack, id: string, timeoutMs = 45_000) =>
  poll(
    `job ${id} to finish`,
    async () => {
      const v = await view(stack, id);
      return v.state === 'completed' || v.state === 'failed' ? v : undefined;
    },
    timeoutMs,
  );

/** Running on a worker and past its first progress report. */
const running = (stack: Stack, id: string) =>
  poll(`job ${id} to report progress`, async () => {
    const v = await view(stack, id);
    if (v.state === 'completed' || v.state === 'failed') throw new Error(`job ${id} ended too early`);
    return v.state === 'active' && v.rowsProcessed > 0 ? v : undefined;
  });

/** The job ran to completion exactly once as far as anyone can tell: one result, one usage row. */
async function expectExactlyOnce(stack: Stack, id: string, rows: number): Promise<void> {
  const v = await view(stack, id);
  expect(v).toMatchObject({ state: 'completed', rowsProcessed: rows, error: null });
  const res = await stack.call(v.resultUrl as string);
  expect(res.status).toBe(200);
  const text = await res.text();
  const lines = text.split(/\r?\n/).filter(Boolean);
  expect(lines).toHaveLength(rows + 1); // header + every row once: no partial first attempt inside
  expect(lines[0]).toBe('Date,Customer,Amount');
  expect(new Set(lines).size).toBe(rows + 1);

  const usage = await stack.pg.query('SELECT rows_processed FROM usage_history WHERE job_id = $1', [id]);
  expect(usage.rows).toEqual([{ rows_processed: rows }]);
  const user = await stack.pg.query('SELECT monthly_rows_used FROM users WHERE id = $1', [stack.userId]);
  expect(user.rows[0].monthly_rows_used).toBe(rows);

  // One result blob; nothing left over from the interrupted attempt.
  const redis = new IORedis(stack.redisUrl);
  try {
    const keys = await redis.keys(`${stack.prefix}*blob:result-*`);
    const owner = `owner:${stack.userId}`;
    expect(keys.sort()).toEqual([
      slotKey(stack.prefix, owner, `blob:result-${id}:chunks`),
      slotKey(stack.prefix, owner, `blob:result-${id}:meta`),
    ]);
  } finally {
    redis.disconnect();
  }
}

describe('background jobs survive worker crashes, shutdowns and Redis restarts (real processes)', () => {
  let stack: Stack | undefined;
  afterEach(async () => {
    await stack?.stop();
    stack = undefined;
  });

  it('kill -9 mid-job: a new worker finishes it; one result, usage counted once', async () => {
    const ROWS = 500_000;
    stack = await startStack({ fromSource: true, env: LOCK });
    const first = stack.startWorker();
    const id = await submit(stack, ROWS);
    const seen = await running(stack, id);
    expect(seen.rowsProcessed).toBeLessThan(ROWS);
    first.kill('SIGKILL');
    await exited(first);
    const killedAt = Date.now();
    stack.startWorker();
    const done = await finished(stack, id);
    const recoveryMs = Date.now() - killedAt;
    console.log(`kill -9 → completed on a new worker after ${recoveryMs} ms (lock 2 s)`);
    expect(done.state).toBe('completed');
    await expectExactlyOnce(stack, id, ROWS);
  });

  it('SIGTERM mid-job: the worker exits within its grace period and the job completes elsewhere', async () => {
    const ROWS = 1_500_000;
    const GRACE = 200;
    stack = await startStack({ fromSource: true, env: LOCK });
    const first = stack.startWorker({ SHUTDOWN_GRACE_MS: String(GRACE) });
    const id = await submit(stack, ROWS);
    // Read progress straight from the job's hash (no HTTP round trip) to signal as early as possible.
    const redis = new IORedis(stack.redisUrl);
    const seen = await poll('the first progress report', async () => {
      const raw = await redis.hget(
        `${bullPrefix((stack as Stack).prefix)}:${QUEUES.csvJobs}:${id}`,
        'progress',
      );
      const p = raw ? (JSON.parse(raw) as { rowsDone?: number }) : null;
      return p?.rowsDone ? { rowsProcessed: p.rowsDone } : undefined;
    });
    redis.disconnect();
    const t0 = Date.now();
    first.kill('SIGTERM');
    await exited(first);
    const exitMs = Date.now() - t0;
    console.log(
      `SIGTERM at ${seen.rowsProcessed} rows → worker exited after ${exitMs} ms (grace ${GRACE} ms), code ${first.exitCode}`,
    );
    expect(first.exitCode).toBe(0);
    expect(exitMs).toBeLessThan(GRACE + 2000);
    // It was still running when the grace period ended (otherwise this test proves nothing).
    expect((await view(stack, id)).state).not.toBe('completed');
    stack.startWorker();
    expect((await finished(stack, id)).state).toBe('completed');
    await expectExactlyOnce(stack, id, ROWS);
  });

  describe('with a private Redis that the test restarts', () => {
    let redis: ChildProcess | undefined;
    let port = 0;
    const startRedis = async () => {
      redis = await startPrivateRedis(port);
    };
    afterEach(async () => {
      await stack?.stop();
      stack = undefined;
      redis?.kill('SIGKILL');
      if (redis) await exited(redis);
    });

    it('api and worker reconnect; while Redis is down the api answers 503 quickly, not a hang', async () => {
      port = await freePort();
      await startRedis();
      stack = await startStack({
        fromSource: true,
        redisUrl: `redis://127.0.0.1:${port}`,
        env: { ...LOCK, OPERATOR_USER: 'ops', OPERATOR_PASSWORD: 'correct-horse-battery' },
      });
      stack.startWorker();
      const before = await submit(stack, 2000);
      expect((await finished(stack, before)).state).toBe('completed');

      (redis as ChildProcess).kill('SIGKILL');
      await exited(redis as ChildProcess);
      const latencies: number[] = [];
      for (const path of [`/api/jobs/${before}`, '/api/jobs', `/api/jobs/${before}/result`]) {
        const t0 = Date.now();
        const res = await stack.call(path, { signal: AbortSignal.timeout(10_000) });
        latencies.push(Date.now() - t0);
        expect({ path, status: res.status }).toEqual({ path, status: 503 });
        expect(await res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      }
      console.log(`while Redis is down: 503 after ${latencies.join(', ')} ms`);
      for (const ms of latencies) expect(ms).toBeLessThan(3000);

      await startRedis();
      const restartedAt = Date.now();
      // A fresh Redis (no persistence) knows no uploads or jobs: the whole path must work again.
      const after = await poll('the api to accept work again', () =>
        submit(stack as Stack, 2000).catch(() => undefined),
      );
      const done = await finished(stack, after);
      console.log(`after the Redis restart: a new job completed ${Date.now() - restartedAt} ms later`);
      expect(done).toMatchObject({ state: 'completed', rowsProcessed: 2000 });

      // The worker recorded the job's duration; the api exposes it as a Prometheus histogram.
      const metrics = await poll('the duration histogram', async () => {
        const res = await fetch(`${(stack as Stack).base}/api/metrics`, {
          headers: { authorization: `Basic ${Buffer.from('ops:correct-horse-battery').toString('base64')}` },
        });
        const text = await res.text();
        return /csv_job_duration_seconds_count\{outcome="completed"\} 1\b/.test(text) ? text : undefined;
      });
      expect(metrics).toContain('# TYPE csv_job_duration_seconds histogram');
      expect(metrics).toMatch(/csv_job_duration_seconds_bucket\{outcome="completed",le="\+Inf"\} 1\b/);
      expect(metrics).toMatch(/csv_job_duration_seconds_count\{outcome="failed"\} 0\b/);
      const sum = Number(/csv_job_duration_seconds_sum\{outcome="completed"\} ([\d.e-]+)/.exec(metrics)?.[1]);
      expect(sum).toBeGreaterThan(0);
    });
  });
});
