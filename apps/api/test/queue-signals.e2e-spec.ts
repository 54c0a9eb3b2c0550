import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { Queue, Worker } from 'bullmq';
import request from 'supertest';
import { bullConnection, bullPrefix, QUEUES } from '@csv-mapper/queue';
import { startApp } from './support/api-test-app';
import { startWorker } from '../../worker/test/support/start-worker';

// The signals an operator alerts on, read over HTTP: the oldest waiting job's age and the queue backlog
// while nothing consumes (health stays 200), and a job whose lock lapses counted as stalled.

const basic = `Basic ${Buffer.from('ops:correct-horse-battery').toString('base64')}`;
// A prefix of its own: the counts below are exact, and other test files leave jobs in the shared one.
const REDIS_PREFIX = `${process.env.REDIS_PREFIX}signals:`;
const prefix = bullPrefix(REDIS_PREFIX);
const redisUrl = process.env.REDIS_URL as string;

describe('queue signals (e2e)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext | undefined;
  const queues: Queue[] = [];

  beforeAll(async () => {
    app = await startApp({ OPERATOR_USER: 'ops', OPERATOR_PASSWORD: 'correct-horse-battery', REDIS_PREFIX });
  });
  afterAll(async () => {
    await worker?.close();
    await Promise.all(queues.map((q) => q.close()));
    await app?.close();
  });

  const queue = (name: string) => {
    const q = new Queue(name, { connection: bullConnection(redisUrl, 'queue'), prefix });
    queues.push(q);
    return q;
  };
  const metrics = async () =>
    (await request(app.getHttpServer()).get('/api/metrics').set('Authorization', basic).expect(200)).text;
  const metric = (text: string, name: string, q: string) =>
    Number(new RegExp(`^${name}\\{queue="${q}"\\} ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN);

  it('with nothing consuming, health answers 200 with the backlog and metrics show the oldest waiting age', async () => {
    const webhooks = queue(QUEUES.webhooks);
    for (let i = 0; i < 5; i++) await webhooks.add('deliver', {} as never);
    await new Promise((r) => setTimeout(r, 1100));

    const health = await request(app.getHttpServer()).get('/api/health').expect(200);
    expect(health.body.status).toBe('ok');
    const backlog = health.body.details.queues;
    expect(backlog.status).toBe('up');
    expect(backlog.webhooks).toMatchObject({ waiting: 5, active: 0, delayed: 0, failed: 0 });
    expect(backlog.webhooks.oldestWaitingAgeSeconds).toBeGreaterThanOrEqual(1);
    expect(backlog['csv-jobs']).toMatchObject({ waiting: 0, oldestWaitingAgeSeconds: 0 });
    expect(Object.keys(backlog).sort()).toEqual(['billing', 'csv-jobs', 'maintenance', 'status', 'webhooks']);

    const text = await metrics();
    expect(text).toContain('# TYPE queue_oldest_waiting_job_age_seconds gauge');
    expect(metric(text, 'queue_oldest_waiting_job_age_seconds', 'webhooks')).toBeGreaterThanOrEqual(1);
    expect(metric(text, 'queue_oldest_waiting_job_age_seconds', 'csv-jobs')).toBe(0);
    expect(text).toContain('# TYPE queue_stalled_jobs_total counter');
    expect(metric(text, 'queue_stalled_jobs_total', 'maintenance')).toBe(0);
    await webhooks.drain();
  });

  it('a job whose lock lapses is counted in queue_stalled_jobs_total and then runs to completion', async () => {
    const maintenance = queue(QUEUES.maintenance);
    const job = await maintenance.add('cleanup', {});
    // A worker that takes the job with a 500 ms lock and then never renews it (as if its event loop were
    // blocked or the process gone).
    const lost = new Worker(QUEUES.maintenance, null, {
      connection: bullConnection(redisUrl, 'worker'),
      prefix,
      lockDuration: 500,
      autorun: false,
    });
    const taken = await lost.getNextJob('lost-worker-token');
    expect(taken?.id).toBe(job.id);
    await lost.close(true);

    // The real worker checks for lapsed locks every 250 ms here.
    worker = await startWorker({ REDIS_PREFIX, WORKER_STALLED_INTERVAL_MS: '250' });

    const end = Date.now() + 15_000;
    let stalled = 0;
    while (Date.now() < end) {
      stalled = metric(await metrics(), 'queue_stalled_jobs_total', 'maintenance');
      if (stalled >= 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(stalled).toBe(1);
    for (let state = ''; state !== 'completed' && Date.now() < end;) {
      state = await maintenance.getJobState(job.id as string);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await maintenance.getJobState(job.id as string)).toBe('completed');
  });
});
