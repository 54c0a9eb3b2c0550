import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { parallelCounters } from '../../../libs/csv-engine/src/parallel';
import { H, signUp as signUpUser, startApp, type Agent, waitForJob } from './support/api-test-app';
import { KUNDEN_MAPPINGS, uploadKunden } from './support/kunden';
import { startWorker } from '../../worker/test/support/start-worker';

// POST /api/process routes large files (above SYNC_ROW_LIMIT) and async requests to the worker: 202 + job.

describe('POST /api/process → background job (real Postgres, Redis, worker)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext;
  let ds: DataSource;

  beforeAll(async () => {
    app = await startApp({ SYNC_ROW_LIMIT: '5' });
    // ENGINE_THREADS=2: jobs map with the engine's worker thread (the same output, tested below).
    worker = await startWorker({ ENGINE_THREADS: '2' });
    ds = app.get(DataSource);
  });
  afterAll(async () => {
    await worker?.close();
    await app?.close();
  });

  const signUp = (plan: string) => signUpUser(app, plan);

  const files = (agent: Agent, rows: number) => uploadKunden(agent, rows);
  const mappings = KUNDEN_MAPPINGS;

  it('queues a file above the sync limit, answers the same job for a double submit, and delivers the result', async () => {
    const { agent, userId } = await signUp('business');
    const ids = await files(agent, 8);
    const body = { ...ids, mappings };
    const [first, second] = await Promise.all([
      agent.post('/api/process').set(H).send(body),
      agent.post('/api/process').set(H).send(body),
    ]);
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(first.body).toMatchObject({ status: 'queued', rowsToProcess: 8, totalRowsInFile: 8 });
    expect(second.body.jobId).toBe(first.body.jobId);

    const view = await waitForJob(agent, first.body.jobId);
    expect(view).toMatchObject({ state: 'completed', rowsProcessed: 8, filename: 'mapped_kunden.csv' });
    // Control totals and the output settings the job used (matched to the template file: LF, comma).
    expect(view.totals).toMatchObject({
      rowsInFile: 8,
      rowsRead: 8,
      rowsWritten: 8,
      rowsSkipped: 0,
      skipped: [],
    });
    expect(view.totals.columns).toEqual([
      expect.objectContaining({ column: 'Amount', sourceTotal: '40.00', outputTotal: '40.00', values: 8 }),
    ]);
    expect(view.output).toMatchObject({ delimiter: ',', lineEnding: '\n', matchedTemplate: true });
    const csv = await agent.get(view.resultUrl).expect(200);
    expect(csv.text.split('\n').slice(0, 3)).toEqual(['Name,Amount', 'Kunde 1,1.50', 'Kunde 2,2.50']);
    // The quota is charged once, for the rows actually processed.
    const [u] = await ds.query('SELECT monthly_rows_used FROM users WHERE id = $1', [userId]);
    expect(u.monthly_rows_used).toBe(8);
    const usage = await ds.query('SELECT rows_processed FROM usage_history WHERE user_id = $1', [userId]);
    expect(usage).toEqual([{ rows_processed: 8 }]);
  });

  it('keeps warning samples (cell values) with the result, not in the job record Redis keeps for a day', async () => {
    const { agent } = await signUp('business');
    const ids = await files(agent, 2);
    const data = await agent
      .post('/api/upload')
      .set(H)
      .field('type', 'data')
      .attach('file', Buffer.from('Kunde;Betrag\nKunde 1;secret-cell-value\nKunde 2;2,50\n'), 'bad.csv')
      .expect(201);
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({ templateFileId: ids.templateFileId, dataFileId: data.body.id, mappings, async: true })
      .expect(202);
    const view = await waitForJob(agent, res.body.jobId);
    expect(view.warnings).toBe(1);
    expect(view.warningSamples).toEqual([
      expect.objectContaining({ row: 1, column: 'Amount', value: 'secret-cell-value' }),
    ]);
    const { Queue } = await import('bullmq');
    const { bullConnection, bullPrefix, QUEUES } = await import('@csv-mapper/queue');
    const queue = new Queue(QUEUES.csvJobs, {
      connection: bullConnection(process.env.REDIS_URL as string, 'queue'),
      prefix: bullPrefix(process.env.REDIS_PREFIX ?? ''),
    });
    try {
      const job = await queue.getJob(res.body.jobId);
      expect(job?.returnvalue).toMatchObject({ warningsCount: 1 });
      expect(JSON.stringify(job?.returnvalue)).not.toContain('secret-cell-value');
    } finally {
      await queue.close();
    }
  });

  it('maps a 20 MB file with two threads (ENGINE_THREADS=2) into exactly the rows of the file', async () => {
    const { agent } = await signUp('business');
    const rows = 1_000_000;
    const ids = await files(agent, rows);
    const before = parallelCounters.hits;
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({ ...ids, mappings })
      .expect(202);
    const view = await waitForJob(agent, res.body.jobId);
    expect(view).toMatchObject({ state: 'completed', rowsProcessed: rows });
    const lines = (await agent.get(view.resultUrl).expect(200)).text.split('\n');
    expect(lines).toHaveLength(rows + 2); // header, rows, final line end
    for (const i of [1, 2, 77_777, 750_001, rows]) expect(lines[i]).toBe(`Kunde ${i},${i}.50`);
    expect(lines.filter((l, i) => i > 0 && l !== '' && l !== `Kunde ${i},${i}.50`)).toEqual([]);
    expect(parallelCounters.hits).toBeGreaterThan(before); // the worker thread mapped part of it
  });

  it('runs a small file in the background when a business user asks for async', async () => {
    const { agent } = await signUp('business');
    const ids = await files(agent, 2);
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({ ...ids, mappings, async: true })
      .expect(202);
    expect(res.body.status).toBe('queued');
  });

  it('refuses async for a plan without background processing', async () => {
    const { agent } = await signUp('free');
    const ids = await files(agent, 2);
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({ ...ids, mappings, async: true })
      .expect(403);
    expect(res.body.code).toBe('PLAN_FEATURE_UNAVAILABLE');
  });
});
