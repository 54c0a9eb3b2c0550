import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import * as yauzl from 'yauzl';
import type { BatchEventData, JobEventData } from '@csv-mapper/queue';
import { CsvJobsProcessor } from '../../worker/src/csv-jobs/csv-jobs.processor';
import { H, signUp } from './support/api-test-app';
import { closeAll } from './support/app-and-worker';
import { apiClient, startListeningStack } from './support/listening-stack';
import { verifyDelivery, type Receiver } from './support/webhook-receiver';

// Bulk uploads end to end: files uploaded over real HTTP with an API key, POST /api/batches, the real
// worker running one job per file, the per-file and batch events at a real receiver (verified), and the
// ZIP downloaded and unpacked.

interface Event<T> {
  type: string;
  data: T;
}

/** Every entry of a ZIP as text, by name. */
async function unzip(bytes: Buffer): Promise<Map<string, string>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const out = new Map<string, string>();
  for await (const entry of zip.eachEntry()) {
    const stream = await zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
  }
  return out;
}

const TEMPLATE = 'Date,Description,Amount\n';
const MAPPINGS = [
  {
    templateColumn: 'Date',
    dataColumn: 'Posted',
    transform: { kind: 'date', input: 'DD/MM/YYYY', output: 'YYYY-MM-DD' },
  },
  { templateColumn: 'Description', dataColumn: 'Payee' },
  { templateColumn: 'Amount', dataColumn: 'Value', transform: { kind: 'amount' } },
];
const JANUARY = 'Posted,Payee,Value\n03/01/2026,Rent,"-1.200,00"\n15/01/2026,Client A,"2.500,50"\n';
const FEBRUARY = 'Posted,Payee,Value\n01/02/2026,Rent,"-1.200,00"\n';
const WRONG = 'When,Who,How much\n01/03/2026,Rent,-1200\n';

describe('bulk uploads: POST /api/batches → one job per file → batch.completed → ZIP (e2e)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext;
  let receiver: Receiver;
  let base: string;

  beforeAll(async () => {
    ({ app, worker, receiver, base } = await startListeningStack({ WEBHOOK_RETRY_SCALE: '0.0002' }));
  });
  afterAll(() => closeAll(worker, app, receiver));

  async function user(plan: string) {
    const { agent, userId } = await signUp(app, plan);
    const key =
      plan === 'business'
        ? ((await agent.post('/api/api-keys').set(H).send({ name: 'bulk' }).expect(201)).body.key as string)
        : null;
    const { call, upload: uploadFile } = apiClient(base, key);
    const upload = async (kind: 'template' | 'data', name: string, content: string) => {
      if (!key) {
        const res = await agent.post(`/api/upload/${kind}`).set(H).attach('file', Buffer.from(content), name);
        expect(res.status).toBe(201);
        return res.body.id as string;
      }
      return (await uploadFile(kind, name, content)).id;
    };
    return { agent, userId, call, upload };
  }

  async function until<T>(what: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
    for (let i = 0; i < 400; i++) {
      const v = await what();
      if (done(v)) return v;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('timed out waiting');
  }

  it('runs the files that fit, names the one that does not, raises one event per file and one batch.completed, and zips the results', async () => {
    const u = await user('business');
    const ep = await u.call('POST', '/api/webhooks', { url: receiver.url('/bulk') });
    expect(ep.status).toBe(201);
    const secret = ep.json.secret as string;
    const templateFileId = await u.upload('template', 'bank-import.csv', TEMPLATE);
    const jan = await u.upload('data', 'january.csv', JANUARY);
    const feb = await u.upload('data', 'february.csv', FEBRUARY);
    const wrong = await u.upload('data', 'march.csv', WRONG);

    const created = await u.call('POST', '/api/batches', {
      templateFileId,
      dataFileIds: [jan, wrong, feb],
      mappings: MAPPINGS,
    });
    expect(created.status).toBe(202);
    const batchId = created.json.batchId as string;
    const jobs = created.json.jobs as Array<{ jobId: string; dataFileId: string }>;
    expect(jobs.map((j) => j.dataFileId)).toEqual([jan, feb]);
    expect(created.json.rejected).toEqual([
      {
        dataFileId: wrong,
        filename: 'march.csv',
        reason: expect.stringContaining('"Posted" is not a column of the data file'),
      },
    ]);

    // Two job.completed (with the batch id) and one batch.completed, all signed.
    const deliveries = await receiver.waitFor('/bulk', 3);
    const events = deliveries.map((d) => verifyDelivery<Event<JobEventData | BatchEventData>>(secret, d));
    const perFile = events.filter((e) => e.type === 'job.completed').map((e) => e.data as JobEventData);
    expect(perFile.map((d) => d.batchId)).toEqual([batchId, batchId]);
    expect(perFile.map((d) => d.jobId).sort()).toEqual(jobs.map((j) => j.jobId).sort());
    const batchEvents = events.filter((e) => e.type === 'batch.completed');
    expect(batchEvents).toHaveLength(1);
    expect(batchEvents[0].data).toMatchObject({
      batchId,
      state: 'completed',
      files: 2,
      completed: 2,
      failed: 0,
      cancelled: 0,
      rowsWritten: 3,
      resultZipUrl: `${base}/api/batches/${batchId}/result.zip`,
      jobs: [
        { jobId: jobs[0].jobId, dataFilename: 'january.csv', state: 'completed', rowsWritten: 2 },
        { jobId: jobs[1].jobId, dataFilename: 'february.csv', state: 'completed', rowsWritten: 1 },
      ],
    });
    // Nothing more arrives: one event per file and one for the batch.
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at('/bulk')).toHaveLength(3);

    const view = await u.call('GET', `/api/batches/${batchId}`);
    expect(view.status).toBe(200);
    expect(view.json).toMatchObject({
      id: batchId,
      state: 'completed',
      templateFilename: 'bank-import.csv',
      totals: { files: 2, completed: 2, failed: 0, rowsProcessed: 3, totalRows: 3, progress: 100 },
      resultZipUrl: `/api/batches/${batchId}/result.zip`,
    });
    expect((view.json.files as Array<{ state: string; filename: string }>).map((f) => f.filename)).toEqual([
      'january.csv',
      'february.csv',
    ]);
    const listed = await u.call('GET', '/api/batches');
    expect((listed.json as unknown as Array<{ id: string }>).map((b) => b.id)).toEqual([batchId]);

    // The ZIP holds each file's result, byte for byte what the job's own download gives.
    const zip = await u.call('GET', (batchEvents[0].data as BatchEventData).resultZipUrl!.slice(base.length));
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toBe(
      `attachment; filename="batch-${batchId.slice(0, 8)}.zip"`,
    );
    const entries = await unzip(zip.bytes);
    expect([...entries.keys()]).toEqual(['mapped_january.csv', 'mapped_february.csv']);
    expect(entries.get('mapped_january.csv')).toBe(
      'Date,Description,Amount\n2026-01-03,Rent,-1200.00\n2026-01-15,Client A,2500.50\n',
    );
    expect(entries.get('mapped_february.csv')).toBe('Date,Description,Amount\n2026-02-01,Rent,-1200.00\n');
    const single = await u.call('GET', `/api/jobs/${jobs[1].jobId}/result`);
    expect(single.bytes.toString('utf8')).toBe(entries.get('mapped_february.csv'));
  });

  it('a file cancelled while queued ends the batch too: batch.completed counts it as cancelled', async () => {
    const u = await user('business');
    const ep = await u.call('POST', '/api/webhooks', {
      url: receiver.url('/bulk-cancel'),
      events: ['batch.completed'],
    });
    const secret = ep.json.secret as string;
    const templateFileId = await u.upload('template', 'bank-import.csv', TEMPLATE);
    const jan = await u.upload('data', 'january.csv', JANUARY);
    const feb = await u.upload('data', 'february.csv', FEBRUARY);
    // The worker stops taking jobs (as while it is busy), so both files wait in the queue.
    const csvWorker = worker.get(CsvJobsProcessor).worker;
    await csvWorker.pause(true);
    try {
      const created = await u.call('POST', '/api/batches', {
        templateFileId,
        dataFileIds: [jan, feb],
        mappings: MAPPINGS,
      });
      expect(created.status).toBe(202);
      const [, second] = created.json.jobs as Array<{ jobId: string }>;
      const cancelled = await u.call('DELETE', `/api/jobs/${second.jobId}`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.json.state).toBe('cancelled');
    } finally {
      csvWorker.resume();
    }
    const [delivery] = await receiver.waitFor('/bulk-cancel', 1);
    const event = verifyDelivery<Event<BatchEventData>>(secret, delivery);
    expect(event.type).toBe('batch.completed');
    expect(event.data).toMatchObject({
      files: 2,
      completed: 1,
      cancelled: 1,
      rowsWritten: 2,
      jobs: [
        { dataFilename: 'january.csv', state: 'completed', rowsWritten: 2 },
        { dataFilename: 'february.csv', state: 'cancelled', rowsWritten: 0 },
      ],
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.at('/bulk-cancel')).toHaveLength(1);
    const view = await u.call('GET', `/api/batches/${event.data.batchId}`);
    expect(view.json).toMatchObject({ state: 'completed', totals: { completed: 1, cancelled: 1 } });
  });

  it('checks the monthly rows of the whole batch before anything runs', async () => {
    const u = await user('business');
    const db = app.get(DataSource);
    // 2 rows left this month: a batch of 3 rows is refused whole, and no row is taken.
    await db.query(`UPDATE users SET monthly_rows_used = 20000000 - 2, last_reset_at = now() WHERE id = $1`, [
      u.userId,
    ]);
    const templateFileId = await u.upload('template', 't.csv', TEMPLATE);
    const jan = await u.upload('data', 'january.csv', JANUARY);
    const feb = await u.upload('data', 'february.csv', FEBRUARY);
    const res = await u.call('POST', '/api/batches', {
      templateFileId,
      dataFileIds: [jan, feb],
      mappings: MAPPINGS,
    });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({
      code: 'BATCH_QUOTA_EXCEEDED',
      error: expect.stringContaining('This batch needs 3 rows but 2 are left this month'),
    });
    const [row] = (await db.query('SELECT monthly_rows_used FROM users WHERE id = $1', [u.userId])) as Array<{
      monthly_rows_used: string;
    }>;
    expect(Number(row.monthly_rows_used)).toBe(20000000 - 2);
    expect((await u.call('GET', '/api/batches')).json).toEqual([]);
  });

  it('refuses what a batch cannot be: other plans, no fitting file, more than 20 files, someone else’s batch', async () => {
    const pro = await user('pro');
    const t = await pro.upload('template', 't.csv', TEMPLATE);
    const d = await pro.upload('data', 'january.csv', JANUARY);
    const refused = await pro.agent
      .post('/api/batches')
      .set(H)
      .send({ templateFileId: t, dataFileIds: [d], mappings: MAPPINGS });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'PLAN_FEATURE_UNAVAILABLE',
      error: expect.stringContaining('Business and Enterprise'),
    });

    const u = await user('business');
    const templateFileId = await u.upload('template', 't.csv', TEMPLATE);
    const wrong = await u.upload('data', 'march.csv', WRONG);
    const none = await u.call('POST', '/api/batches', {
      templateFileId,
      dataFileIds: [wrong],
      mappings: MAPPINGS,
    });
    expect(none.status).toBe(400);
    expect(none.json).toMatchObject({
      code: 'NO_FILES_ACCEPTED',
      error: expect.stringContaining('march.csv'),
    });

    const many = await u.call('POST', '/api/batches', {
      templateFileId,
      dataFileIds: Array.from({ length: 21 }, (_, i) => `file-${i}`),
      mappings: MAPPINGS,
    });
    expect(many.status).toBe(400);
    expect(many.json).toMatchObject({
      code: 'TOO_MANY_FILES',
      error: 'A batch takes at most 20 data files.',
    });

    // Another Business user's batch: every batch route answers 404, as for a missing one.
    const jan = await u.upload('data', 'january.csv', JANUARY);
    const mine = await u.call('POST', '/api/batches', {
      templateFileId,
      dataFileIds: [jan],
      mappings: MAPPINGS,
    });
    expect(mine.status).toBe(202);
    const other = await user('business');
    for (const path of [
      `/api/batches/${mine.json.batchId}`,
      `/api/batches/${mine.json.batchId}/result.zip`,
    ]) {
      const res = await other.call('GET', path);
      expect(res.status).toBe(404);
      expect(res.json.code).toBe('NOT_FOUND');
    }
    expect((await other.call('GET', '/api/batches')).json).toEqual([]);
    // Someone else's data file in a batch is named as not found, like a missing one.
    const theirs = await other.upload('template', 't.csv', TEMPLATE);
    const stolen = await other.call('POST', '/api/batches', {
      templateFileId: theirs,
      dataFileIds: [jan],
      mappings: MAPPINGS,
    });
    expect(stolen.status).toBe(400);
    expect(stolen.json).toMatchObject({ code: 'NO_FILES_ACCEPTED' });
    expect(JSON.stringify(stolen.json)).toContain('not found or expired');
    await until(
      () => u.call('GET', `/api/batches/${mine.json.batchId}`),
      (r) => r.json.state === 'completed',
    );
  });
});
