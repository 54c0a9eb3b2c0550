import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { QueueEvents } from 'bullmq';
import { DataSource } from 'typeorm';
import { bullConnection, bullPrefix, JobProducer, QUEUES, type JobProgress } from '@csv-mapper/queue';
import { createApiApp } from '../../api/src/bootstrap';
import { loadApiConfig } from '../../api/src/config/api.config';
import { startWorker } from './support/start-worker';

// The api's producer enqueues a job on the real Redis; the worker's processor runs it and reports progress.
describe('api producer → worker processor (real Redis + Postgres)', () => {
  let api: INestApplication;
  let worker: INestApplicationContext;
  let events: QueueEvents;
  let ds: DataSource;

  beforeAll(async () => {
    api = await createApiApp(loadApiConfig(process.env));
    await api.init();
    worker = await startWorker();
    events = new QueueEvents(QUEUES.maintenance, {
      connection: bullConnection(process.env.REDIS_URL as string, 'worker'),
      prefix: bullPrefix(process.env.REDIS_PREFIX ?? ''),
    });
    await events.waitUntilReady();
    ds = api.get(DataSource);
  });

  afterAll(async () => {
    await events?.close();
    await worker?.close();
    await api?.close();
  });

  it('runs the monthly quota reset: progress events, then usage of last month is zeroed', async () => {
    const [stale] = await ds.query(
      `INSERT INTO users (username, email, password, monthly_rows_used, last_reset_at)
       VALUES ('stale_' || floor(random()*1e9)::text, 'stale' || floor(random()*1e9)::text || '@example.com', 'x', 4200, now() - interval '40 days')
       RETURNING id`,
    );
    const [fresh] = await ds.query(
      `INSERT INTO users (username, email, password, monthly_rows_used, last_reset_at)
       VALUES ('fresh_' || floor(random()*1e9)::text, 'fresh' || floor(random()*1e9)::text || '@example.com', 'x', 77, now())
       RETURNING id`,
    );

    const progress: JobProgress[] = [];
    const producer = api.get(JobProducer);
    const jobId = await producer.enqueue(
      QUEUES.maintenance,
      'monthly-quota-reset',
      {},
      { dedupeKey: `test-${Date.now()}` },
    );
    events.on('progress', ({ jobId: id, data }) => {
      if (id === jobId) progress.push(data as JobProgress);
    });
    const result = await new Promise<{ usersReset: number }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('job did not complete within 20 s')), 20_000);
      events.on('completed', ({ jobId: id, returnvalue }) => {
        if (id !== jobId) return;
        clearTimeout(timer);
        resolve(
          (typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as { usersReset: number },
        );
      });
      events.on('failed', ({ jobId: id, failedReason }) => {
        if (id === jobId) reject(new Error(failedReason));
      });
    });

    expect(result.usersReset).toBeGreaterThanOrEqual(1);
    expect(progress.map((p) => p.percent)).toEqual([10, 100]);
    const rows: Array<{ id: string; monthly_rows_used: number }> = await ds.query(
      'SELECT id, monthly_rows_used FROM users WHERE id = ANY($1)',
      [[stale.id, fresh.id]],
    );
    const byId = Object.fromEntries(rows.map((r) => [r.id, r.monthly_rows_used]));
    expect(byId[stale.id]).toBe(0);
    expect(byId[fresh.id]).toBe(77);
  });

  it('turns a double submit with the same key into one job', async () => {
    const producer = api.get(JobProducer);
    const key = `same-${Date.now()}`;
    const a = await producer.enqueue(QUEUES.maintenance, 'cleanup', {}, { dedupeKey: key, delay: 60_000 });
    const b = await producer.enqueue(QUEUES.maintenance, 'cleanup', {}, { dedupeKey: key, delay: 60_000 });
    expect(a).toBe(b);
    expect(a).not.toMatch(/^\d+$/);
    expect(a).not.toContain(':');
  });
});

describe('maintenance cleanup (real Postgres)', () => {
  it('removes expired reset tokens, sessions and webhook attempts older than 30 days only', async () => {
    const { QuotaService } = await import('../src/quota/quota.service');
    const ds = new DataSource({ type: 'postgres', url: process.env.DATABASE_URL });
    await ds.initialize();
    try {
      const [u] = await ds.query(
        `INSERT INTO users (username, email, password) VALUES ($1, $2, 'x') RETURNING id`,
        [`clean_${Date.now()}`, `clean${Date.now()}@example.com`],
      );
      await ds.query(
        `INSERT INTO password_reset_tokens (user_id, token, expires_at) VALUES ($1, md5(random()::text) || md5(random()::text), now() - interval '1 minute'), ($1, md5(random()::text) || md5(random()::text), now() + interval '1 hour')`,
        [u.id],
      );
      await ds.query(
        `INSERT INTO sessions (sid, sess, expire) VALUES ($1, '{}', now() - interval '1 minute'), ($2, '{}', now() + interval '1 hour')`,
        [`old-${u.id}`, `live-${u.id}`],
      );
      const [ep] = await ds.query(
        `INSERT INTO webhook_endpoints (user_id, url, secret) VALUES ($1, 'https://example.com/h', 'whsec_x') RETURNING id`,
        [u.id],
      );
      await ds.query(
        `INSERT INTO webhook_deliveries (endpoint_id, event, message_id, attempt, created_at)
         VALUES ($1, 'job.completed', 'msg_old', 1, now() - interval '31 days'),
                ($1, 'job.completed', 'msg_recent', 1, now() - interval '29 days')`,
        [ep.id],
      );
      const removed = await new QuotaService(ds).cleanup();
      expect(removed.deliveries).toBeGreaterThanOrEqual(1);
      expect(
        await ds.query('SELECT message_id FROM webhook_deliveries WHERE endpoint_id = $1', [ep.id]),
      ).toEqual([{ message_id: 'msg_recent' }]);
      expect(removed.tokens).toBeGreaterThanOrEqual(1);
      const [{ n }] = await ds.query(
        'SELECT count(*)::int AS n FROM password_reset_tokens WHERE user_id = $1',
        [u.id],
      );
      expect(n).toBe(1);
      const sids = await ds.query('SELECT sid FROM sessions WHERE sid = ANY($1)', [
        [`old-${u.id}`, `live-${u.id}`],
      ]);
      expect(sids).toEqual([{ sid: `live-${u.id}` }]);
    } finally {
      await ds.destroy();
    }
  });
});
