import type { INestApplicationContext } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import { Worker, type Queue } from 'bullmq';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import {
  bullPrefix,
  bullConnection,
  jobEventBase,
  newWebhookSecret,
  QUEUES,
  type ProcessCsvPayload,
} from '@csv-mapper/queue';
import { CsvJobsProcessor } from '../src/csv-jobs/csv-jobs.processor';
import { WebhookDispatcher } from '../src/webhooks/webhook-dispatcher.service';
import { startWorker } from './support/start-worker';

// The csv processor raises job.completed just before BullMQ marks the job completed. A receiver that
// downloads the result at once must find the job completed, so the delivery waits for that mark. Here a
// job is held active by hand (the queue's own worker paused) to make the gap as long as we like.

describe('job.completed is delivered only once its job is marked completed', () => {
  let worker: INestApplicationContext;
  let receiver: Server;
  let arrivals: number[] = [];

  beforeAll(async () => {
    receiver = createServer((_req, res) => {
      arrivals.push(Date.now());
      res.end('ok');
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    const port = (receiver.address() as AddressInfo).port;
    worker = await startWorker({ WEBHOOK_ALLOWED_IPS: `127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await worker?.close();
    receiver?.close();
  });

  it('holds the delivery while the job is active and sends it right after completion', async () => {
    const ds = worker.get(DataSource);
    const port = (receiver.address() as AddressInfo).port;
    const [u] = await ds.query(
      `INSERT INTO users (username, email, password, plan) VALUES ($1, $2, 'x', 'business') RETURNING id`,
      [`order_${Date.now()}`, `order${Date.now()}@example.com`],
    );
    await ds.query(
      `INSERT INTO webhook_endpoints (user_id, url, secret, events) VALUES ($1, $2, $3, '["job.completed"]')`,
      [u.id, `http://127.0.0.1:${port}/hook`, newWebhookSecret()],
    );
    await worker.get(CsvJobsProcessor).worker.pause();
    const payload: ProcessCsvPayload = {
      userId: u.id,
      dataFileId: 'none',
      templateFileId: 'none',
      templateHeaders: ['A'],
      mappings: [],
      maxRows: 1,
      totalRows: 1,
      dataFilename: 'data.csv',
      fileSizeBytes: 1,
    };
    const queue = worker.get<Queue>(getQueueToken(QUEUES.csvJobs));
    await queue.add('process-csv', payload, { jobId: `order-${Date.now()}` });
    const env = process.env as Record<string, string>;
    const hand = new Worker(QUEUES.csvJobs, null, {
      connection: bullConnection(env.REDIS_URL, 'worker'),
      prefix: bullPrefix(env.REDIS_PREFIX),
    });
    try {
      const job = await hand.getNextJob('by-hand');
      expect(job).toBeDefined();
      arrivals = [];
      await worker
        .get(WebhookDispatcher)
        .dispatch(
          u.id,
          'job.completed',
          job!.id as string,
          jobEventBase(job!.id as string, payload, 'completed'),
        );
      await new Promise((r) => setTimeout(r, 600));
      expect(arrivals).toEqual([]);
      const completedAt = Date.now();
      await job!.moveToCompleted({ done: true }, 'by-hand', false);
      for (let i = 0; i < 100 && arrivals.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(arrivals).toHaveLength(1);
      expect(arrivals[0] - completedAt).toBeLessThan(1000);
    } finally {
      await hand.close();
      worker.get(CsvJobsProcessor).worker.resume();
    }
  });
});
