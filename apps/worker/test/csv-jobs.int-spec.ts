import type { INestApplicationContext } from '@nestjs/common';
import { Queue, QueueEvents } from 'bullmq';
import IORedis from 'ioredis';
import { DataSource } from 'typeorm';
import {
  bullPrefix,
  bullConnection,
  EphemeralStore,
  JobProducer,
  QUEUES,
  type JobProgress,
  type ProcessCsvPayload,
  type ProcessCsvResult,
} from '@csv-mapper/queue';
import { QuotaLedger } from '@csv-mapper/db';
import { startWorker } from './support/start-worker';

// A background CSV job end to end on the real Redis and Postgres: blob in, engine, blob out, usage once.
describe('csv-jobs processor (real Redis + Postgres)', () => {
  let worker: INestApplicationContext;
  let queue: Queue;
  let events: QueueEvents;
  let producer: JobProducer;
  let store: EphemeralStore;
  let redis: IORedis;
  let ds: DataSource;
  let userId: string;
  const prefix = process.env.REDIS_PREFIX as string;
  const conn = () => bullConnection(process.env.REDIS_URL as string, 'worker');

  beforeAll(async () => {
    worker = await startWorker();
    queue = new Queue(QUEUES.csvJobs, { connection: conn(), prefix: bullPrefix(prefix) });
    events = new QueueEvents(QUEUES.csvJobs, { connection: conn(), prefix: bullPrefix(prefix) });
    await events.waitUntilReady();
    producer = new JobProducer({ [QUEUES.csvJobs]: queue });
    redis = new IORedis(process.env.REDIS_URL as string);
    store = new EphemeralStore(redis, prefix);
    ds = worker.get(DataSource);
    const [u] = await ds.query(
      `INSERT INTO users (username, email, password, monthly_rows_used) VALUES ($1, $2, 'x', 1000) RETURNING id`,
      [`jobs_${Date.now()}`, `jobs${Date.now()}@example.com`],
    );
    userId = u.id;
  });

  afterAll(async () => {
    await events?.close();
    await queue?.close();
    await worker?.close();
    redis?.disconnect();
  });

  async function upload(text: string, filename = 'bank.csv'): Promise<string> {
    const w = store.createWriter('upload', userId, filename);
    await w.write(Buffer.from(text, 'utf8'));
    await w.commit({});
    return w.id;
  }

  function payload(dataFileId: string, over: Partial<ProcessCsvPayload> = {}): ProcessCsvPayload {
    return {
      userId,
      dataFileId,
      templateFileId: 'virtual-template-bank',
      templateHeaders: ['Date', 'Description', 'Amount'],
      mappings: [
        {
          templateColumn: 'Date',
          dataColumn: 'Buchungstag',
          transform: { kind: 'date', input: 'auto', output: 'MM/DD/YYYY' },
        },
        { templateColumn: 'Description', dataColumn: 'Verwendungszweck' },
        { templateColumn: 'Amount', dataColumn: 'Betrag', transform: { kind: 'amount' } },
      ],
      maxRows: 1000,
      totalRows: 3,
      dataFilename: 'bank.csv',
      fileSizeBytes: 100,
      ...over,
    };
  }

  function finished(jobId: string): Promise<ProcessCsvResult> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('job did not finish in 20 s')), 20_000);
      const done = ({ jobId: id, returnvalue }: { jobId: string; returnvalue: unknown }) => {
        if (id !== jobId) return;
        clearTimeout(timer);
        resolve(
          (typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as ProcessCsvResult,
        );
      };
      events.on('completed', done);
      events.on('failed', ({ jobId: id, failedReason }) => {
        if (id !== jobId) return;
        clearTimeout(timer);
        reject(new Error(failedReason));
      });
    });
  }

  async function readResult(resultId: string): Promise<string> {
    const { stream } = await store.openRead(resultId, userId);
    const parts: Buffer[] = [];
    for await (const c of stream) parts.push(c as Buffer);
    return Buffer.concat(parts).toString('utf8');
  }

  it('maps a German bank export into the result blob and records usage once', async () => {
    const id = await upload(
      'Buchungstag;Verwendungszweck;Betrag\n31.01.2026;Miete Januar;-1.250,00\n02.02.2026;Gehalt;3.400,50\n14.02.2026;"Café ""Zentral""";-12,90\n',
    );
    const progress: JobProgress[] = [];
    const jobId = await producer.enqueue(QUEUES.csvJobs, 'process-csv', payload(id), {
      dedupeKey: `t1-${Date.now()}`,
    });
    events.on('progress', ({ jobId: j, data }) => j === jobId && progress.push(data as JobProgress));
    const result = await finished(jobId);

    expect(result).toMatchObject({
      rowsProcessed: 3,
      totalRows: 3,
      truncated: false,
      warningsCount: 0,
      filename: 'mapped_bank.csv',
    });
    expect(await readResult(result.resultId)).toBe(
      'Date,Description,Amount\r\n01/31/2026,Miete Januar,-1250.00\r\n02/02/2026,Gehalt,3400.50\r\n02/14/2026,"Café ""Zentral""",-12.90\r\n',
    );
    expect(progress.at(-1)).toEqual({ percent: 100, rowsDone: 3, warnings: 0 });

    const usage = await ds.query('SELECT rows_processed FROM usage_history WHERE job_id = $1', [jobId]);
    expect(usage).toEqual([{ rows_processed: 3 }]);
    // 1000 reserved by the api, 3 used: the other 997 go back to the monthly allowance.
    const [u] = await ds.query('SELECT monthly_rows_used FROM users WHERE id = $1', [userId]);
    expect(u.monthly_rows_used).toBe(3);

    // Running the same job's bookkeeping again changes nothing.
    const again = await worker.get(QuotaLedger).commit({
      jobId,
      userId,
      rowsProcessed: 3,
      reservedRows: 1000,
      fileSizeBytes: 100,
      filename: 'bank.csv',
    });
    expect(again).toBe(false);
    const [u2] = await ds.query('SELECT monthly_rows_used FROM users WHERE id = $1', [userId]);
    expect(u2.monthly_rows_used).toBe(3);
  });

  it('fails bad input once with the engine message (no retries)', async () => {
    const id = await upload('Buchungstag;Verwendungszweck;Betrag\n31.01.2026;"never closed;1,00\n');
    const jobId = await producer.enqueue(QUEUES.csvJobs, 'process-csv', payload(id), {
      dedupeKey: `t2-${Date.now()}`,
    });
    await expect(finished(jobId)).rejects.toThrow(/Unterminated quoted field starting on line 2/);
    const job = await queue.getJob(jobId);
    expect(job?.attemptsMade).toBe(1);
  });

  it('fails clearly when the upload expired before the job ran', async () => {
    const jobId = await producer.enqueue(QUEUES.csvJobs, 'process-csv', payload('gone-upload-id'), {
      dedupeKey: `t3-${Date.now()}`,
    });
    await expect(finished(jobId)).rejects.toThrow(
      'The data file expired before the job ran. Upload it again.',
    );
  });
});
