import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { JobEventData } from '@csv-mapper/queue';
import { CsvJobsProcessor } from '../../worker/src/csv-jobs/csv-jobs.processor';
import { H, signUp } from './support/api-test-app';
import { closeAll } from './support/app-and-worker';
import { apiClient, startListeningStack } from './support/listening-stack';
import { startReceiver, verifyDelivery, type Receiver } from './support/webhook-receiver';

// Webhook consumers and API users, end to end: requests in with an API key over real HTTP, the real api and
// worker on this run's Postgres and Redis, and deliveries observed at a real receiver on 127.0.0.1 and
// verified with the `standardwebhooks` package. Nothing here calls an inner service.

interface Event {
  type: string;
  timestamp: string;
  data: JobEventData;
}

const TEMPLATE = 'Title,Qty,Price\n';
const DATA = 'Name,Count,Cost\nWidget,3,"1.234,50"\n"Gadget, large",5,"12,00"\nBolt,7,"0,25"\n';
const MAPPINGS = [
  { templateColumn: 'Title', dataColumn: 'Name' },
  { templateColumn: 'Qty', dataColumn: 'Count' },
  { templateColumn: 'Price', dataColumn: 'Cost', transform: { kind: 'amount' } },
];

describe('webhooks and the published API, through the real api → worker → receiver flow (e2e)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext;
  let receiver: Receiver;
  let base: string;
  let db: DataSource;

  beforeAll(async () => {
    ({ app, worker, receiver, base } = await startListeningStack({ WEBHOOK_RETRY_SCALE: '0.0002' }));
    db = app.get(DataSource);
  });
  afterAll(() => closeAll(worker, app, receiver));

  /** A Business user with an API key made through the real routes; `call` sends requests with the key. */
  async function business() {
    const { agent, userId } = await signUp(app, 'business');
    const created = await agent.post('/api/api-keys').set(H).send({ name: 'integration' }).expect(201);
    const key = created.body.key as string;
    const { call, upload } = apiClient(base, key);
    const endpoint = async (path: string, events?: string[]) => {
      const r = await call('POST', '/api/webhooks', {
        url: receiver.url(path),
        ...(events ? { events } : {}),
      });
      expect(r.status).toBe(201);
      return r.json as { id: string; secret: string };
    };
    const files = async () => ({
      templateFileId: (await upload('template', 'shopify.csv', TEMPLATE)).id,
      dataFileId: (await upload('data', 'orders.csv', DATA)).id,
    });
    return { key, userId, call, upload, endpoint, files };
  }

  const waitForLog = async (
    call: Awaited<ReturnType<typeof business>>['call'],
    endpointId: string,
    count: number,
  ) => {
    for (let i = 0; i < 200; i++) {
      const r = await call('GET', `/api/webhooks/${endpointId}/deliveries`);
      const rows = r.json as unknown as Array<Record<string, unknown>>;
      if (rows.length >= count) return rows;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error(`fewer than ${count} attempts logged`);
  };

  it('a completed async job sends exactly one verified job.completed whose resultUrl downloads the result', async () => {
    const u = await business();
    const ep = await u.endpoint('/completed');
    const states: string[] = [];
    receiver.onRequest('/completed', async (r) => {
      // A consumer that acts at once finds the job completed and its result ready.
      const id = (JSON.parse(r.body) as Event).data.jobId;
      states.push(((await u.call('GET', `/api/jobs/${id}`)).json as { state: string }).state);
    });
    const { templateFileId, dataFileId } = await u.files();
    // The saved mapping is loaded by the key and named in the event.
    const saved = await u.call('POST', '/api/mappings', {
      name: 'Orders to Shopify',
      templateHeaders: ['Title', 'Qty', 'Price'],
      dataHeaders: ['Name', 'Count', 'Cost'],
      mappings: MAPPINGS,
    });
    expect(saved.status).toBe(201);
    const mappingId = saved.json.id as string;
    expect((await u.call('GET', `/api/mappings/${mappingId}`)).json).toMatchObject({ mappings: MAPPINGS });

    const queued = await u.call('POST', '/api/process', {
      templateFileId,
      dataFileId,
      mappingId,
      async: true,
    });
    expect(queued.status).toBe(202);
    const jobId = queued.json.jobId as string;

    const [delivery] = await receiver.waitFor('/completed', 1);
    expect(delivery).toBeDefined();
    const event = verifyDelivery<Event>(ep.secret, delivery);
    expect(event.type).toBe('job.completed');
    expect(event.data).toMatchObject({
      jobId,
      state: 'completed',
      batchId: null,
      mappingId,
      mappingName: 'Orders to Shopify',
      dataFilename: 'orders.csv',
      templateFilename: 'shopify.csv',
      rowsRead: 3,
      rowsWritten: 3,
      warningCount: 0,
      resultUrl: `${base}/api/jobs/${jobId}/result`,
      error: null,
    });
    expect(event.data.controlTotals).toEqual([
      expect.objectContaining({
        column: 'Price',
        kind: 'amount',
        sourceTotal: '1246.75',
        outputTotal: '1246.75',
      }),
    ]);
    expect(event.data.totals).toMatchObject({ rowsRead: 3, rowsWritten: 3, rowsSkipped: 0, skipped: [] });
    expect(event.data.totals?.columns).toEqual(event.data.controlTotals);
    const expires = Date.parse(event.data.resultExpiresAt as string) - Date.now();
    expect(expires).toBeGreaterThan(50 * 60_000);
    expect(expires).toBeLessThanOrEqual(3600_000);
    for (let i = 0; i < 100 && states.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(states).toEqual(['completed']);

    const viaUrl = await fetch(event.data.resultUrl as string, {
      headers: { authorization: `Bearer ${u.key}` },
    });
    const viaJobs = await u.call('GET', `/api/jobs/${jobId}/result`);
    const bytes = await viaUrl.text();
    expect(viaUrl.status).toBe(200);
    expect(bytes).toBe(viaJobs.text);
    expect(bytes).toBe('Title,Qty,Price\nWidget,3,1234.50\n"Gadget, large",5,12.00\nBolt,7,0.25\n');

    // Exactly once: nothing more arrives, and the log shows one successful attempt with the answer.
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.at('/completed')).toHaveLength(1);
    const log = await waitForLog(u.call, ep.id, 1);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      event: 'job.completed',
      jobId,
      attempt: 1,
      statusCode: 200,
      outcome: 'succeeded',
      responseSnippet: '{"ok":true}',
      nextRetryAt: null,
      messageId: delivery.headers['webhook-id'],
    });
  });

  it('a failing receiver (500, 500, 200) gets the event on the third attempt with the same webhook-id', async () => {
    const u = await business();
    const ep = await u.endpoint('/flaky');
    receiver.script('/flaky', [
      { status: 500, body: 'database is down' },
      { status: 500, body: 'x'.repeat(3000) },
      { status: 200, body: 'thanks' },
    ]);
    const q = await u.call('POST', '/api/process', { ...(await u.files()), mappings: MAPPINGS, async: true });
    expect(q.status).toBe(202);
    const got = await receiver.waitFor('/flaky', 3);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const r of got) expect(verifyDelivery<Event>(ep.secret, r).data.jobId).toBe(q.json.jobId);
    const log = (await waitForLog(u.call, ep.id, 3)).reverse();
    expect(log.map((d) => [d.attempt, d.statusCode, d.outcome])).toEqual([
      [1, 500, 'retrying'],
      [2, 500, 'retrying'],
      [3, 200, 'succeeded'],
    ]);
    expect(log[0].responseSnippet).toBe('database is down');
    expect((log[1].responseSnippet as string).length).toBe(1024);
    expect(log[0].nextRetryAt).not.toBeNull();
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at('/flaky')).toHaveLength(3);
  });

  it('a 429 with Retry-After: 2 is retried no sooner than 2 seconds later', async () => {
    const u = await business();
    const ep = await u.endpoint('/busy');
    receiver.script('/busy', [{ status: 429, headers: { 'retry-after': '2' } }, { status: 204 }]);
    await u.call('POST', '/api/process', { ...(await u.files()), mappings: MAPPINGS, async: true });
    const got = await receiver.waitFor('/busy', 2);
    expect(got).toHaveLength(2);
    expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(2000);
    const log = await waitForLog(u.call, ep.id, 2);
    expect(log.map((d) => d.outcome)).toEqual(['succeeded', 'retrying']);
  });

  it('a 410 Gone disables the endpoint at once: no further attempts', async () => {
    const u = await business();
    const ep = await u.endpoint('/gone');
    receiver.script('/gone', [{ status: 410 }]);
    await u.call('POST', '/api/process', { ...(await u.files()), mappings: MAPPINGS, async: true });
    await receiver.waitFor('/gone', 1);
    await new Promise((r) => setTimeout(r, 700));
    expect(receiver.at('/gone')).toHaveLength(1);
    const list = (await u.call('GET', '/api/webhooks')).json as unknown as Array<Record<string, unknown>>;
    expect(list[0]).toMatchObject({
      id: ep.id,
      enabled: false,
      disabledReason: 'The receiver answered 410 Gone',
    });
    const log = await waitForLog(u.call, ep.id, 1);
    expect(log[0]).toMatchObject({ statusCode: 410, outcome: 'failed', nextRetryAt: null });
  });

  it('a job cancelled before it ran sends job.cancelled and never job.completed', async () => {
    const u = await business();
    const ep = await u.endpoint('/cancel');
    const csv = worker.get(CsvJobsProcessor).worker;
    await csv.pause();
    let jobId: string;
    try {
      const q = await u.call('POST', '/api/process', {
        ...(await u.files()),
        mappings: MAPPINGS,
        async: true,
      });
      expect(q.status).toBe(202);
      jobId = q.json.jobId as string;
      const cancelled = await u.call('DELETE', `/api/jobs/${jobId}`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.json.state).toBe('cancelled');
    } finally {
      csv.resume();
    }
    const [r] = await receiver.waitFor('/cancel', 1);
    const event = verifyDelivery<Event>(ep.secret, r);
    expect(event).toMatchObject({ type: 'job.cancelled', data: { jobId, state: 'cancelled', error: null } });
    await new Promise((res) => setTimeout(res, 800));
    expect(receiver.at('/cancel').map((x) => (JSON.parse(x.body) as Event).type)).toEqual(['job.cancelled']);
  });

  it('a failed job sends job.failed with an error code and message', async () => {
    const u = await business();
    const ep = await u.endpoint('/failed', ['job.failed']);
    const files = await u.files();
    const csv = worker.get(CsvJobsProcessor).worker;
    await csv.pause();
    try {
      const q = await u.call('POST', '/api/process', { ...files, mappings: MAPPINGS, async: true });
      expect(q.status).toBe(202);
      // The data file is gone by the time the job runs.
      expect((await u.call('DELETE', `/api/upload/${files.dataFileId}`)).status).toBe(204);
    } finally {
      csv.resume();
    }
    const [r] = await receiver.waitFor('/failed', 1);
    const event = verifyDelivery<Event>(ep.secret, r);
    expect(event.type).toBe('job.failed');
    expect(event.data).toMatchObject({
      state: 'failed',
      resultUrl: null,
      rowsWritten: 0,
      error: {
        code: 'DATA_FILE_EXPIRED',
        message: 'The data file expired before the job ran. Upload it again.',
      },
    });
  });

  it('an allowed 127.0.0.1:<receiver port> opens no other port on that address', async () => {
    const canary = await startReceiver();
    try {
      const u = await business();
      const urls = [`http://127.0.0.1:${canary.port}/x`, 'http://127.0.0.1:6379/', 'http://127.0.0.1/'];
      for (const url of urls) {
        const ep = await u.call('POST', '/api/webhooks', { url });
        expect(ep.status).toBe(201);
        expect((await u.call('POST', `/api/webhooks/${ep.json.id}/test`)).status).toBe(202);
        const [row] = await waitForLog(u.call, ep.json.id as string, 1);
        expect(row).toMatchObject({ statusCode: null, outcome: 'failed' });
        expect(row.error).toMatch(/^Refused to connect to 127\.0\.0\.1 port \d+/);
      }
      expect(canary.connections()).toBe(0);
    } finally {
      await canary.close();
    }
  });

  it('rotating the secret signs with both secrets for a day; resend repeats the same message', async () => {
    const u = await business();
    const ep = await u.endpoint('/rotate');
    const rotated = await u.call('POST', `/api/webhooks/${ep.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret = rotated.json.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(ep.secret);
    const until = Date.parse(rotated.json.previousSecretExpiresAt as string) - Date.now();
    expect(until).toBeGreaterThan(23.9 * 3600_000);

    const test = await u.call('POST', `/api/webhooks/${ep.id}/test`);
    expect(test.status).toBe(202);
    const [first] = await receiver.waitFor('/rotate', 1);
    expect((first.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(verifyDelivery<Event>(newSecret, first).type).toBe('test');
    expect(verifyDelivery<Event>(ep.secret, first).type).toBe('test');

    const [logged] = await waitForLog(u.call, ep.id, 1);
    const resent = await u.call('POST', `/api/webhooks/${ep.id}/deliveries/${logged.id}/resend`);
    expect(resent.status).toBe(202);
    expect(resent.json.messageId).toBe(first.headers['webhook-id']);
    const both = await receiver.waitFor('/rotate', 2);
    expect(both[1].headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(both[1].body).toBe(first.body);
    const log = await waitForLog(u.call, ep.id, 2);
    expect(log.map((d) => d.attempt)).toEqual([2, 1]);

    // Someone else's endpoint or delivery id answers 404, as a missing one does.
    const other = await business();
    expect((await other.call('POST', `/api/webhooks/${ep.id}/rotate-secret`)).status).toBe(404);
    expect((await other.call('GET', `/api/webhooks/${ep.id}/deliveries`)).status).toBe(404);
    const foreign = await other.endpoint('/other');
    const cross = await other.call('POST', `/api/webhooks/${foreign.id}/deliveries/${logged.id}/resend`);
    expect(cross.status).toBe(404);
    expect(cross.json.code).toBe('NOT_FOUND');
  });

  it('Idempotency-Key: the same key and body return the same job; another body is refused; another key is a new job', async () => {
    const u = await business();
    const body = { ...(await u.files()), mappings: MAPPINGS, async: true };
    const key = randomUUID();
    const first = await u.call('POST', '/api/process', body, { 'idempotency-key': key });
    expect(first.status).toBe(202);
    const again = await u.call('POST', '/api/process', body, { 'idempotency-key': key });
    expect(again.status).toBe(202);
    expect(again.json).toEqual(first.json);
    expect(again.headers.get('idempotent-replayed')).toBe('true');

    const changed = await u.call(
      'POST',
      '/api/process',
      { ...body, options: { bom: true } },
      { 'idempotency-key': key },
    );
    expect(changed.status).toBe(422);
    expect(changed.json.code).toBe('IDEMPOTENCY_KEY_REUSED');

    const other = await u.call('POST', '/api/process', body, { 'idempotency-key': randomUUID() });
    expect(other.status).toBe(202);
    expect(other.json.jobId).not.toBe(first.json.jobId);

    // The same key from another account is that account's own key.
    const v = await business();
    const theirs = await v.call(
      'POST',
      '/api/process',
      { ...(await v.files()), mappings: MAPPINGS, async: true },
      {
        'idempotency-key': key,
      },
    );
    expect(theirs.status).toBe(202);
    expect(theirs.json.jobId).not.toBe(first.json.jobId);

    // A sync run replays its answer (the CSV) and is charged once.
    const sync = { ...(await u.files()), mappings: MAPPINGS };
    const syncKey = randomUUID();
    const [{ used: before }] = await db.query(
      'SELECT monthly_rows_used::int AS used FROM users WHERE id = $1',
      [u.userId],
    );
    const s1 = await u.call('POST', '/api/process', sync, { 'idempotency-key': syncKey });
    const s2 = await u.call('POST', '/api/process', sync, { 'idempotency-key': syncKey });
    expect(s1.status).toBe(200);
    expect(s2.status).toBe(200);
    expect(s2.json).toEqual(s1.json);
    expect(s2.headers.get('idempotent-replayed')).toBe('true');
    const [{ used: after }] = await db.query(
      'SELECT monthly_rows_used::int AS used FROM users WHERE id = $1',
      [u.userId],
    );
    expect(after - before).toBe(3);

    const tooLong = await u.call('POST', '/api/process', sync, { 'idempotency-key': 'k'.repeat(256) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.code).toBe('INVALID_IDEMPOTENCY_KEY');
  });

  it('a key does everything a browser user does with a job: templates, preview, list, read, cancel, download', async () => {
    const u = await business();
    const templates = await u.call('GET', '/api/templates');
    expect(templates.status).toBe(200);
    expect((templates.json as unknown as unknown[]).length).toBeGreaterThan(0);
    const files = await u.files();
    const preview = await u.call('POST', '/api/process/preview', { ...files, mappings: MAPPINGS });
    expect(preview.status).toBe(200);
    expect(preview.json.rows).toEqual([
      ['Widget', '3', '1234.50'],
      ['Gadget, large', '5', '12.00'],
      ['Bolt', '7', '0.25'],
    ]);
    const q = await u.call('POST', '/api/process', { ...files, mappings: MAPPINGS, async: true });
    const jobId = q.json.jobId as string;
    let state = '';
    for (let i = 0; i < 100 && state !== 'completed'; i++) {
      state = ((await u.call('GET', `/api/jobs/${jobId}`)).json as { state: string }).state;
      if (state !== 'completed') await new Promise((r) => setTimeout(r, 50));
    }
    expect(state).toBe('completed');
    const list = (await u.call('GET', '/api/jobs')).json as unknown as Array<{ id: string }>;
    expect(list.map((j) => j.id)).toContain(jobId);
    expect((await u.call('GET', `/api/jobs/${jobId}/result`)).text).toContain('Widget,3,1234.50');
    const finished = await u.call('DELETE', `/api/jobs/${jobId}`);
    expect(finished.status).toBe(409);
    expect((await u.call('GET', '/api/mappings')).status).toBe(200);
  });
});
