// `npm run sim:scale` (needs `npm run build:server` first; heavy: run it on a quiet machine, never in npm test).
// Scale-out, shown: 2 api processes and 3 workers on one Postgres, one Redis (or, with `-- --cluster`, a local
// 3-master Redis Cluster) and an S3-compatible server (s3rver, in this process), with BLOB_STORE=s3.
//  1. One 1M-row job alone (upload → job → result): its time and the reference result.
//  2. 10 uploads of the same file and 10 concurrent jobs through both apis with an API key (Bearer).
//  3. While they run, one worker is killed with SIGKILL; its jobs must be taken over by another worker.
// Reports: every job completed exactly once (usage recorded once, one attempt taken over), results
// byte-identical to the reference, one job.completed webhook per job, wall time, peak RSS per process,
// Redis peak memory, the takeover time of the killed worker's jobs and the stalled-job count (false stalls).
// Options: --cluster, --jobs N (10), --rows N (1,000,000).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { startReceiver } from '../apps/api/test/support/webhook-receiver';
import { bullPrefix, createRedis, parseClusterNodes } from '../libs/queue/src/redis';
import { startS3TestServer } from '../scripts/s3-test-server';
import { BENCH_MAPPINGS, generate } from './engine/generate';
import { startRedisCluster, startRedisServer, type RedisCluster } from './support/redis-cluster';
import { exited, freePort, H, rssMb } from './support/stack';

const root = resolve(__dirname, '..');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CLUSTER = process.argv.includes('--cluster');
const JOBS = arg('jobs', 10);
const ROWS = arg('rows', 1_000_000);
const MAPPINGS = BENCH_MAPPINGS;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const secs = (ms: number) => (ms / 1000).toFixed(1);

interface Proc {
  name: string;
  proc: ChildProcess;
  peakMb: number;
}

async function main(): Promise<void> {
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
  };
  try {
    await run(cleanups);
  } finally {
    await cleanup();
  }
}

async function run(cleanups: Array<() => Promise<unknown> | unknown>): Promise<void> {
  // Services: S3 (in this process), Redis (single or a fresh cluster), a webhook receiver, a fresh database.
  const s3 = await startS3TestServer();
  cleanups.push(() => s3.close());
  // A private Redis (or cluster) for the run, so its memory peak is this run's alone.
  let cluster: RedisCluster | undefined;
  let redisUrl: string;
  if (CLUSTER) {
    cluster = await startRedisCluster(3);
    cleanups.push(() => cluster?.stop());
    redisUrl = `redis://${cluster.nodes[0].host}:${cluster.nodes[0].port}`;
  } else {
    const single = await startRedisServer();
    cleanups.push(() => single.stop());
    redisUrl = single.url;
  }
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  const baseDb = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/csvmapper';
  const dbName = `csvmapper_sim_${randomBytes(3).toString('hex')}`;
  const dbUrl = new URL(baseDb);
  dbUrl.pathname = `/${dbName}`;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const db = require(join(root, 'dist/libs/db/src/index.js')) as {
    ensureDatabase(u: string): Promise<boolean>;
    runMigrations(u: string): Promise<string[]>;
  };
  await db.ensureDatabase(dbUrl.toString());
  cleanups.push(async () => {
    const admin = new Client({ connectionString: baseDb.replace(/\/[^/]*$/, '/postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end();
  });
  await db.runMigrations(dbUrl.toString());
  const pg = new Client({ connectionString: dbUrl.toString() });
  await pg.connect();
  cleanups.push(() => pg.end());

  const prefix = `csvm-sim-${randomBytes(3).toString('hex')}:`;
  const clusterNodes = cluster ? parseClusterNodes(cluster.nodesEnv) : undefined;
  const redis = createRedis(redisUrl, 'queue', {}, clusterNodes);
  cleanups.push(() => redis.quit().catch(() => redis.disconnect()));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...s3.env,
    NODE_ENV: 'development',
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: redisUrl,
    ...(cluster ? { REDIS_CLUSTER_NODES: cluster.nodesEnv } : {}),
    REDIS_PREFIX: prefix,
    LOG_LEVEL: 'warn',
    // The AWS SDK's notice about Node 22 would repeat once per process.
    NODE_OPTIONS: '--no-warnings',
    ENABLE_CRON: '0',
    REGISTRATIONS_PER_IP_PER_HOUR: '1000',
    UPLOADS_PER_IP: '50',
    WEBHOOK_ALLOWED_IPS: `127.0.0.1:${receiver.port}`,
  };
  const procs: Proc[] = [];
  const start = (app: 'api' | 'worker', name: string, more: Record<string, string>) => {
    const proc = spawn(process.execPath, [join(root, `dist/apps/${app}/src/main.js`)], {
      cwd: root,
      env: { ...env, ...more },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    procs.push({ name, proc, peakMb: 0 });
    return proc;
  };
  cleanups.push(async () => {
    for (const p of procs) if (p.proc.exitCode === null && p.proc.signalCode === null) p.proc.kill('SIGTERM');
    await Promise.race([Promise.all(procs.map((p) => exited(p.proc))), sleep(10_000)]);
    for (const p of procs) if (p.proc.exitCode === null && p.proc.signalCode === null) p.proc.kill('SIGKILL');
  });
  const apis: string[] = [];
  for (let i = 1; i <= 2; i++) {
    const port = await freePort();
    start('api', `api${i}`, { PORT: String(port) });
    apis.push(`http://127.0.0.1:${port}`);
  }
  for (let i = 1; i <= 3; i++) start('worker', `worker${i}`, { WORKER_NAME: `worker${i}` });
  for (const base of apis) {
    let up = false;
    for (let i = 0; i < 150 && !up; i++) {
      up = await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (!up) await sleep(200);
    }
    if (!up) throw new Error(`${base} did not become healthy within 30 s`);
  }

  // Peaks, sampled every 250 ms for the whole run.
  let redisPeakMb = 0;
  // One plain client per master (INFO is per node), made once.
  const nodeClients = (cluster?.nodes ?? []).map((n) => createRedis(`redis://${n.host}:${n.port}`, 'queue'));
  cleanups.push(() => nodeClients.forEach((c) => c.disconnect()));
  const usedMb = async (c: typeof redis) =>
    Number(/used_memory:(\d+)/.exec(await c.info('memory'))?.[1] ?? 0) / 1048576;
  const redisUsed = async () =>
    cluster ? (await Promise.all(nodeClients.map(usedMb))).reduce((a, b) => a + b, 0) : usedMb(redis);
  const sampler = setInterval(() => {
    for (const p of procs) p.peakMb = Math.max(p.peakMb, rssMb(p.proc.pid as number));
    redisUsed().then(
      (mb) => (redisPeakMb = Math.max(redisPeakMb, mb)),
      () => undefined,
    );
  }, 250);
  cleanups.push(() => clearInterval(sampler));

  // A signed-up Enterprise user with an API key and a webhook endpoint.
  const username = `sim_${randomBytes(4).toString('hex')}`;
  const reg = await fetch(`${apis[0]}/api/register`, {
    method: 'POST',
    headers: { ...H, 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: 'Tr1cky-Mapper!' }),
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  await pg.query(`UPDATE users SET plan = 'enterprise' WHERE username = $1`, [username]);
  const cookie = (reg.headers.get('set-cookie') ?? '').split(';')[0];
  const keyRes = await fetch(`${apis[1]}/api/api-keys`, {
    method: 'POST',
    headers: { ...H, cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'scale simulation' }),
  });
  if (keyRes.status !== 201) throw new Error(`api key: ${keyRes.status} ${await keyRes.text()}`);
  const apiKey = ((await keyRes.json()) as { key: string }).key;
  const auth = { authorization: `Bearer ${apiKey}` };
  const hook = await fetch(`${apis[0]}/api/webhooks`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url('/hook'), events: ['job.completed'] }),
  });
  if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${await hook.text()}`);

  const file = join(tmpdir(), `csvm-sim-${process.pid}.csv`);
  const gen = await generate(file, ROWS);
  const cleanupFile = () => rmSync(file, { force: true });
  cleanups.push(cleanupFile);
  console.log(
    `sim:scale — ${CLUSTER ? 'Redis Cluster (3 masters)' : 'single Redis'}, s3 driver, 2 api + 3 workers; ` +
      `file ${gen.rows.toLocaleString()} rows, ${(gen.bytes / 1e6).toFixed(1)} MB`,
  );

  const upload = async (base: string, type: 'template' | 'data', blob: Blob, name: string) => {
    const form = new FormData();
    form.append('file', blob, name);
    const res = await fetch(`${base}/api/upload/${type}`, { method: 'POST', headers: auth, body: form });
    if (res.status !== 201) throw new Error(`upload ${type}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { id: string }).id;
  };
  const submit = async (base: string, templateFileId: string, dataFileId: string) => {
    const res = await fetch(`${base}/api/process`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ templateFileId, dataFileId, mappings: MAPPINGS, async: true }),
    });
    if (res.status !== 202) throw new Error(`process: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { jobId: string }).jobId;
  };
  const jobKey = (id: string) => `${bullPrefix(prefix)}:csv-jobs:${id}`;
  const jobState = async (id: string) => {
    const [finishedOn, failedReason, pb, processedOn, ats, stc] = await redis.hmget(
      jobKey(id),
      'finishedOn',
      'failedReason',
      'pb',
      'processedOn',
      'ats',
      'stc',
    );
    return {
      finishedOn,
      failedReason,
      pb,
      processedOn: Number(processedOn ?? 0),
      ats: Number(ats ?? 0),
      stalled: Number(stc ?? 0),
    };
  };
  const untilFinished = async (ids: string[], onTick?: () => Promise<void>) => {
    const done = new Map<string, number>();
    while (done.size < ids.length) {
      for (const id of ids) {
        if (done.has(id)) continue;
        const s = await jobState(id);
        if (s.failedReason && s.finishedOn) throw new Error(`job ${id} failed: ${s.failedReason}`);
        if (s.finishedOn) done.set(id, Number(s.finishedOn));
      }
      await onTick?.();
      await sleep(250);
    }
    return done;
  };
  const resultHash = async (base: string, id: string) => {
    const res = await fetch(`${base}/api/jobs/${id}/result`, { headers: auth });
    if (res.status !== 200) throw new Error(`result ${id}: ${res.status}`);
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      bytes += chunk.length;
    }
    return { sha256: hash.digest('hex'), bytes };
  };

  // 1. One job alone: the reference result and one job's time.
  const template = await upload(
    apis[0],
    'template',
    new Blob([MAPPINGS.map((m) => m.templateColumn).join(',') + '\n']),
    'template.csv',
  );
  const refData = await upload(apis[0], 'data', await openAsBlob(file), 'reference.csv');
  const r0 = Date.now();
  const refId = await submit(apis[0], template, refData);
  const refDone = await untilFinished([refId]);
  const oneJobMs = (refDone.get(refId) as number) - r0;
  const reference = await resultHash(apis[1], refId);
  console.log(
    `one job alone: ${secs(oneJobMs)} s (submit → completed); result ${(reference.bytes / 1e6).toFixed(1)} MB`,
  );

  // 2. JOBS uploads, then JOBS concurrent jobs, alternating between the two apis.
  const u0 = Date.now();
  const dataIds = await Promise.all(
    Array.from({ length: JOBS }, async (_, i) =>
      upload(apis[i % 2], 'data', await openAsBlob(file), `part-${i}.csv`),
    ),
  );
  const uploadMs = Date.now() - u0;
  const t0 = Date.now();
  const ids = await Promise.all(dataIds.map((d, i) => submit(apis[i % 2], template, d)));

  // 3. Kill a worker that is running a job, once the run is under way.
  const victim = procs.find((p) => p.name === 'worker2') as Proc;
  let killedAt = 0;
  let killedJobs: string[] = [];
  let freeSlotsAtKill = 0;
  const takeovers = new Map<string, number>();
  /** When a worker's stalled check found the lapsed lock and put the job back in the queue. */
  const detections = new Map<string, number>();
  const onTick = async () => {
    if (!killedAt) {
      const states = await Promise.all(ids.map(async (id) => ({ id, ...(await jobState(id)) })));
      const mine = states.filter((s) => s.pb === victim.name && !s.finishedOn && s.processedOn > 0);
      // Mid-run: its jobs have been running for a few seconds.
      if (mine.length > 0 && Date.now() - Math.min(...mine.map((s) => s.processedOn)) > 3000) {
        victim.proc.kill('SIGKILL');
        killedAt = Date.now();
        killedJobs = mine.map((s) => s.id);
        freeSlotsAtKill = 6 - states.filter((s) => !s.finishedOn && s.processedOn > 0).length;
        console.log(
          `SIGKILL ${victim.name} at +${secs(killedAt - t0)} s while it ran ${killedJobs.join(', ')}`,
        );
      }
      return;
    }
    for (const id of killedJobs) {
      if (takeovers.has(id)) continue;
      const s = await jobState(id);
      if (s.stalled > 0 && !detections.has(id)) detections.set(id, Date.now() - killedAt);
      if (s.pb && s.pb !== victim.name && s.processedOn > killedAt)
        takeovers.set(id, s.processedOn - killedAt);
      else if (s.finishedOn && !takeovers.has(id)) takeovers.set(id, NaN);
    }
  };
  const finished = await untilFinished(ids, onTick);
  const wallMs = Math.max(...finished.values()) - t0;

  // Verification.
  const usage = await pg.query(
    'SELECT job_id, count(*)::int AS n FROM usage_history WHERE job_id = ANY($1) GROUP BY job_id',
    [[refId, ...ids]],
  );
  const usageOnce = usage.rows.length === ids.length + 1 && usage.rows.every((r: { n: number }) => r.n === 1);
  const views = await Promise.all(
    ids.map(async (id, i) => {
      const res = await fetch(`${apis[i % 2]}/api/jobs/${id}`, { headers: auth });
      return (await res.json()) as { state: string; rowsProcessed: number };
    }),
  );
  const allCompleted = views.every((v) => v.state === 'completed' && v.rowsProcessed === gen.rows);
  const hashes = [];
  for (const [i, id] of ids.entries()) hashes.push(await resultHash(apis[(i + 1) % 2], id));
  const identical = hashes.every((h) => h.sha256 === reference.sha256);
  await sleep(3000); // last deliveries
  const deliveries = new Map<string, number>();
  for (const r of receiver.at('/hook')) {
    const body = JSON.parse(r.body) as { type: string; data: { jobId: string } };
    if (body.type === 'job.completed')
      deliveries.set(body.data.jobId, (deliveries.get(body.data.jobId) ?? 0) + 1);
  }
  const oneWebhookEach =
    [refId, ...ids].every((id) => deliveries.get(id) === 1) && deliveries.size === ids.length + 1;
  const stalled = (await redis.hgetall(`${prefix}metrics:stalled-jobs`)) as Record<string, string>;
  const stalledCount = Number(stalled['csv-jobs'] ?? 0);
  const attempts = await Promise.all(ids.map(async (id) => (await jobState(id)).ats));

  const goalWallMs = 2 * oneJobMs * (JOBS / 3);
  const takeoverMs = [...takeovers.values()];
  console.table(
    Object.fromEntries(procs.map((p) => [p.name, { 'peak RSS MB': p.peakMb.toFixed(0), goal: '≤ 300' }])),
  );
  const report = {
    redis: CLUSTER ? 'cluster (3 masters)' : 'single',
    jobs: JOBS,
    rows: gen.rows,
    'upload phase s': secs(uploadMs),
    'one job alone s': secs(oneJobMs),
    'wall s (submit → last completed)': secs(wallMs),
    'wall goal s (2 × one job × jobs / 3)': secs(goalWallMs),
    'every job completed': allCompleted,
    'usage recorded exactly once per job': usageOnce,
    'attempts per job': attempts.join(' '),
    'results byte-identical to the lone run': identical,
    'one job.completed webhook per job': oneWebhookEach,
    'killed worker jobs': killedJobs.length,
    'stall detected and job requeued s after the kill (±0.25)': [...detections.values()].map(secs).join(' '),
    'takeover s (another worker started it)': takeoverMs.map((ms) => secs(ms)).join(' '),
    'free job slots when killed (3 workers × 2 − busy)': freeSlotsAtKill,
    'stalled jobs counted (killed jobs only = no false stalls)': stalledCount,
    'Redis peak MB (used_memory, all masters, sampled)': redisPeakMb.toFixed(1),
  };
  console.table(Object.entries(report).map(([figure, value]) => ({ figure, value })));
  const goals = {
    'wall ≤ goal': wallMs <= goalWallMs,
    'stall detected ≤ 15 s': detections.size > 0 && [...detections.values()].every((ms) => ms <= 15_000),
    'takeover ≤ 15 s': takeoverMs.length > 0 && takeoverMs.every((ms) => ms <= 15_000),
    'no false stalls': stalledCount === killedJobs.length,
    'Redis peak ≤ 64 MB': redisPeakMb <= 64,
    'every process ≤ 300 MB': procs.every((p) => p.peakMb <= 300),
  };
  console.log('goals:', JSON.stringify(goals));
  if (!allCompleted || !usageOnce || !identical || !oneWebhookEach || killedJobs.length === 0) {
    process.exitCode = 1;
    console.error('sim:scale: a correctness check failed (see the table)');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
