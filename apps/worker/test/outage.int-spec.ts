import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import type { Job, Queue } from 'bullmq';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { QUEUES } from '@csv-mapper/queue';
import { H, signUp, startApp, waitForJob, type Agent } from '../../api/test/support/api-test-app';
import { startReceiver, type Receiver } from '../../api/test/support/webhook-receiver';
import { startWorker as bootWorker } from './support/start-worker';
import { sleep, until } from '../../api/test/support/poll';

// Issue 28, finding 1: a Postgres outage longer than the 3 attempts' backoff (~6 s) is waited out, not failed;
// a job that does fail for good is refunded once, and its `job.failed` goes out once the database is back.
// The outage is real: the run's database stops accepting connections and every open one is terminated.

jest.setTimeout(90_000);

const ROWS = 2000;
const TEMPLATE = 'Date,Customer,Amount\n';
const MAPPINGS = [
  { templateColumn: 'Date', dataColumn: 'Booking Date' },
  { templateColumn: 'Customer', dataColumn: 'Customer Name' },
  { templateColumn: 'Amount', dataColumn: 'Amount' },
];
function dataCsv(rows: number): string {
  let s = 'Booking Date,Customer Name,Amount\n';
  for (let i = 0; i < rows; i++) s += `2024-01-${String((i % 28) + 1).padStart(2, '0')},Kunde ${i},${i}.50\n`;
  return s;
}

describe('a database outage during background jobs (real Postgres taken away)', () => {
  const dbName = new URL(process.env.DATABASE_URL as string).pathname.slice(1);
  let admin: Client;
  let app: INestApplication;
  let worker: INestApplicationContext | undefined;
  let receiver: Receiver;
  let agent: Agent;
  let userId: string;

  async function startWorker(env: Record<string, string>): Promise<Queue> {
    await worker?.close();
    worker = await bootWorker({
      WEBHOOK_ALLOWED_IPS: `127.0.0.1:${receiver.port}`,
      WEBHOOK_RETRY_SCALE: '0.0002',
      JOB_OUTAGE_BACKOFF_MS: '200',
      JOB_OUTAGE_BACKOFF_MAX_MS: '1000',
      ...env,
    });
    return worker.get<Queue>(getQueueToken(QUEUES.csvJobs));
  }

  async function databaseDown(): Promise<void> {
    await admin.query(`ALTER DATABASE "${dbName}" WITH ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [dbName]);
  }
  const databaseUp = () => admin.query(`ALTER DATABASE "${dbName}" WITH ALLOW_CONNECTIONS true`);

  /** Uploads and submits a job while the queue is paused, so it starts only once the database is gone. */
  async function submitPaused(queue: Queue): Promise<string> {
    const upload = async (type: string, csv: string) =>
      (
        await agent
          .post('/api/upload')
          .set(H)
          .field('type', type)
          .attach('file', Buffer.from(csv), `${type}.csv`)
          .expect(201)
      ).body.id as string;
    const templateFileId = await upload('template', TEMPLATE);
    const dataFileId = await upload('data', dataCsv(ROWS));
    await queue.pause();
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({ templateFileId, dataFileId, mappings: MAPPINGS, async: true })
      .expect(202);
    return res.body.jobId as string;
  }

  const events = (type: string, jobId: string) =>
    receiver
      .at('/hook')
      .map((r) => JSON.parse(r.body) as { type: string; data: { jobId: string } })
      .filter((e) => e.type === type && e.data.jobId === jobId);

  beforeAll(async () => {
    const adminUrl = new URL(process.env.DATABASE_URL as string);
    adminUrl.pathname = '/postgres';
    admin = new Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    receiver = await startReceiver();
    app = await startApp();
    ({ agent, userId } = await signUp(app, 'business'));
    await agent
      .post('/api/webhooks')
      .set(H)
      .send({ url: receiver.url('/hook') })
      .expect(201);
  });
  afterAll(async () => {
    await databaseUp().catch(() => undefined);
    await worker?.close();
    await app?.close();
    await receiver?.close();
    await admin?.end();
  });

  it('a job whose database goes away for longer than its 3 attempts last completes once it is back', async () => {
    const queue = await startWorker({});
    const jobId = await submitPaused(queue);
    await databaseDown();
    try {
      await queue.resume();
      // The job reached the database (usage) and was put back to wait instead of using up an attempt.
      await until('the job to wait out the outage', async () => {
        const job = (await queue.getJob(jobId)) as Job | undefined;
        return (job?.data as { outage?: { retries: number } }).outage?.retries ? true : undefined;
      });
      // Longer than 3 attempts with 2 s exponential backoff would have lasted.
      await sleep(8000);
      const job = (await queue.getJob(jobId)) as Job;
      expect(await job.getState()).not.toBe('failed');
      expect(job.attemptsMade).toBe(0);
    } finally {
      await databaseUp();
    }
    const view = await waitForJob(agent, jobId, 30_000);
    expect(view).toMatchObject({ state: 'completed', rowsProcessed: ROWS, error: null });
    const db = app.get(DataSource);
    expect(await db.query('SELECT rows_processed FROM usage_history WHERE job_id = $1', [jobId])).toEqual([
      { rows_processed: ROWS },
    ]);
    const [user] = (await db.query('SELECT monthly_rows_used FROM users WHERE id = $1', [userId])) as Array<{
      monthly_rows_used: number;
    }>;
    expect(Number(user.monthly_rows_used)).toBe(ROWS);
    await until('job.completed', async () => (events('job.completed', jobId).length ? true : undefined));
    await sleep(500);
    expect(events('job.completed', jobId)).toHaveLength(1);
  });

  it('a job that fails for good is refunded once and its job.failed arrives after the database is back', async () => {
    const db = app.get(DataSource);
    const usedBefore = Number(
      (
        (await db.query('SELECT monthly_rows_used FROM users WHERE id = $1', [userId])) as Array<{
          monthly_rows_used: number;
        }>
      )[0].monthly_rows_used,
    );
    // A budget of 1 s: the job gives up during the outage; its refund must wait for the database.
    const queue = await startWorker({ JOB_OUTAGE_RETRY_MS: '1000' });
    const jobId = await submitPaused(queue);
    await databaseDown();
    let failedReason: string;
    try {
      await queue.resume();
      failedReason = await until('the job to fail for good', async () => {
        const job = (await queue.getJob(jobId)) as Job | undefined;
        return job && (await job.getState()) === 'failed' ? job.failedReason : undefined;
      });
      await sleep(3000);
      expect(events('job.failed', jobId)).toHaveLength(0);
    } finally {
      await databaseUp();
    }
    expect(failedReason).toMatch(/unavailable for too long/);
    await until('job.failed', async () => (events('job.failed', jobId).length ? true : undefined));
    const [event] = events('job.failed', jobId) as unknown as Array<{
      data: { error: { code: string; message: string } };
    }>;
    expect(event.data.error.code).toBe('SERVICE_UNAVAILABLE');
    const view = await waitForJob(agent, jobId);
    expect(view.state).toBe('failed');
    // No host, port or driver text reaches the client.
    for (const text of [String(view.error), event.data.error.message])
      expect(text).not.toMatch(/127\.0\.0\.1|localhost|:\d{4}|ECONN|terminat|postgres|database "/i);
    // Refunded exactly once: back to what was used before, one (empty) usage row for the job.
    expect(
      Number(
        (
          (await db.query('SELECT monthly_rows_used FROM users WHERE id = $1', [userId])) as Array<{
            monthly_rows_used: number;
          }>
        )[0].monthly_rows_used,
      ),
    ).toBe(usedBefore);
    expect(await db.query('SELECT rows_processed FROM usage_history WHERE job_id = $1', [jobId])).toEqual([
      { rows_processed: 0 },
    ]);
    await sleep(500);
    expect(events('job.failed', jobId)).toHaveLength(1);
  });
});
