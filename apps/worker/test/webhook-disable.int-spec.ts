import type { INestApplicationContext } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { DataSource } from 'typeorm';
import { jobEventBase, newWebhookSecret, type ProcessCsvPayload } from '@csv-mapper/queue';
import { WebhookDispatcher } from '../src/webhooks/webhook-dispatcher.service';
import { startWorker } from './support/start-worker';
import { until } from '../../api/test/support/poll';

// After 5 days in which every delivery failed, the endpoint is disabled and its owner gets one mail.
// Time is simulated by seeding old failed deliveries; mail goes to an in-process SMTP server.

/** A job.completed event for a job that never existed (the policy under test reads only the endpoint). */
const STUB_JOB: ProcessCsvPayload = {
  userId: '',
  dataFileId: '',
  templateFileId: '',
  templateHeaders: [],
  mappings: [],
  maxRows: 0,
  totalRows: 0,
  dataFilename: 'data.csv',
  fileSizeBytes: 0,
};
const completed = (jobId: string) => jobEventBase(jobId, STUB_JOB, 'completed');

interface Mail {
  to: string[];
  raw: string;
}

/** `until`, every 50 ms. */
const poll = <T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> =>
  until(what, fn, timeoutMs, 50);

describe('webhook endpoints failing for days are disabled and their owner mailed once', () => {
  let worker: INestApplicationContext;
  let ds: DataSource;
  let smtp: SMTPServer;
  let receiver: Server;
  let receiverPort: number;
  let hits = 0;
  const mails: Mail[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    receiver = createServer((_req, res) => {
      hits += 1;
      res.statusCode = 500;
      res.end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    receiverPort = (receiver.address() as AddressInfo).port;

    worker = await startWorker({
      WEBHOOK_ALLOWED_IPS: `127.0.0.1:${receiverPort}`,
      WEBHOOK_RETRY_SCALE: '0.0001',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      APP_URL: 'https://csvmapper.example',
    });
    ds = worker.get(DataSource);
  });
  afterAll(async () => {
    await worker?.close();
    receiver?.close();
    await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
  });

  async function endpointWithHistory(history: Array<{ daysAgo: number; ok: boolean }>) {
    const tag = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
    const [u] = await ds.query(
      `INSERT INTO users (username, email, password, plan) VALUES ($1, $2, 'x', 'business') RETURNING id, email`,
      [`whd_${tag}`, `owner_${tag}@example.com`],
    );
    const [ep] = await ds.query(
      `INSERT INTO webhook_endpoints (user_id, url, secret, events) VALUES ($1, $2, $3, '["job.completed"]') RETURNING id`,
      [u.id, `http://127.0.0.1:${receiverPort}/hook`, newWebhookSecret()],
    );
    for (const [i, h] of history.entries()) {
      await ds.query(
        `INSERT INTO webhook_deliveries (endpoint_id, event, message_id, attempt, status_code, error, created_at)
         VALUES ($1, 'job.completed', $2, 1, $3, $4, now() - make_interval(hours => $5))`,
        [ep.id, `msg_seed_${i}`, h.ok ? 204 : 500, h.ok ? null : 'HTTP 500', Math.round(h.daysAgo * 24)],
      );
    }
    return { userId: u.id as string, email: u.email as string, endpointId: ep.id as string };
  }

  const endpoint = async (id: string) =>
    (await ds.query('SELECT enabled, disabled_reason FROM webhook_endpoints WHERE id = $1', [id]))[0] as {
      enabled: boolean;
      disabled_reason: string | null;
    };

  it('disables an endpoint whose deliveries have all failed for 5+ days and sends exactly one mail', async () => {
    const ep = await endpointWithHistory([
      { daysAgo: 9, ok: true },
      { daysAgo: 6, ok: false },
      { daysAgo: 3, ok: false },
    ]);
    const dispatcher = worker.get(WebhookDispatcher);
    const before = hits;
    await dispatcher.dispatch(ep.userId, 'job.completed', 'job-a', completed('job-a'));
    await dispatcher.dispatch(ep.userId, 'job.completed', 'job-b', completed('job-b'));
    await poll('the endpoint to be disabled', async () =>
      (await endpoint(ep.endpointId)).enabled ? undefined : true,
    );
    const mine = await poll('the mail', async () => {
      const m = mails.filter((x) => x.to.includes(ep.email));
      return m.length ? m : undefined;
    });
    expect((await endpoint(ep.endpointId)).disabled_reason).toBe('Every delivery failed for 5 days');
    // Both queued deliveries have run (or been refused as disabled) before we count.
    await poll('both deliveries to finish', async () => {
      const [{ n }] = await ds.query(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND message_id NOT LIKE 'msg_seed_%'`,
        [ep.endpointId],
      );
      return n >= 1 ? n : undefined;
    });
    await dispatcher.dispatch(ep.userId, 'job.completed', 'job-c', completed('job-c'));
    await new Promise((r) => setTimeout(r, 300)); // a third delivery would be sent within ~10 ms
    expect(mails.filter((x) => x.to.includes(ep.email))).toHaveLength(1);
    expect(mine[0].raw).toContain('Subject: Your CSV Mapper webhook endpoint was disabled');
    expect(mine[0].raw).toContain(`http://127.0.0.1:${receiverPort}/hook`);
    expect(mine[0].raw).toContain('https://csvmapper.example/profile');
    // No retries after disabling: at most the two attempts that raced the disabling reached the receiver.
    expect(hits - before).toBeLessThanOrEqual(2);
  });

  it('keeps an endpoint that failed 6 days ago but succeeded since, and one failing for only 2 days', async () => {
    const recovered = await endpointWithHistory([
      { daysAgo: 6, ok: false },
      { daysAgo: 1, ok: true },
    ]);
    const young = await endpointWithHistory([{ daysAgo: 2, ok: false }]);
    const dispatcher = worker.get(WebhookDispatcher);
    for (const ep of [recovered, young])
      await dispatcher.dispatch(ep.userId, 'job.completed', 'job-x', completed('job-x'));
    for (const ep of [recovered, young]) {
      await poll('a failed attempt to be logged', async () => {
        const [{ n }] = await ds.query(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND message_id NOT LIKE 'msg_seed_%'`,
          [ep.endpointId],
        );
        return n >= 2 ? n : undefined; // two failures: the check ran after each
      });
      expect(await endpoint(ep.endpointId)).toEqual({ enabled: true, disabled_reason: null });
      expect(mails.filter((x) => x.to.includes(ep.email))).toHaveLength(0);
    }
  });
});
