import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { newWebhookSecret } from '@csv-mapper/queue';
import { loadWorkerConfig } from '../src/config/worker.config';
import { WebhookDispatcher } from '../src/webhooks/webhook-dispatcher.service';
import { sendWebhook } from '../src/webhooks/webhook-sender';

function listen(
  handler: Parameters<typeof createServer>[1],
): Promise<{ server: Server; port: number; connections: () => number }> {
  return new Promise((resolve) => {
    let n = 0;
    const server = createServer(handler);
    server.on('connection', () => (n += 1));
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as AddressInfo).port, connections: () => n }),
    );
  });
}

describe('outgoing webhooks: signed, retried, SSRF-guarded (real Redis + Postgres + worker)', () => {
  let worker: INestApplicationContext;
  let ds: DataSource;

  beforeAll(async () => {
    const { WorkerModule } = await import('../src/worker.module');
    worker = await NestFactory.createApplicationContext(
      WorkerModule.forRoot(
        loadWorkerConfig({ ...process.env, WEBHOOK_ALLOWED_IPS: '127.0.0.1', WEBHOOK_RETRY_SCALE: '0.0001' }),
      ),
      { logger: false },
    );
    await worker.init();
    ds = worker.get(DataSource);
  });
  afterAll(() => worker?.close());

  it('retries a failing receiver with the same webhook-id and signatures a third-party verifier accepts', async () => {
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const { server, port } = await listen((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.statusCode = received.length <= 2 ? 500 : 204;
        res.end('receiver body that must never be stored');
      });
    });
    try {
      const [u] = await ds.query(
        `INSERT INTO users (username, email, password, plan) VALUES ($1, $2, 'x', 'business') RETURNING id`,
        [`wh_${Date.now()}`, `wh${Date.now()}@example.com`],
      );
      const secret = newWebhookSecret();
      const [ep] = await ds.query(
        `INSERT INTO webhook_endpoints (user_id, url, secret, events) VALUES ($1, $2, $3, '["job.completed"]') RETURNING id`,
        [u.id, `http://127.0.0.1:${port}/hook`, secret],
      );
      const sent = await worker
        .get(WebhookDispatcher)
        .dispatch(u.id, 'job.completed', 'job-123', { jobId: 'job-123', rowsProcessed: 5 });
      expect(sent).toBe(1);

      for (let i = 0; i < 100 && received.length < 3; i++) await new Promise((r) => setTimeout(r, 100));
      expect(received).toHaveLength(3);
      const ids = new Set(received.map((r) => r.headers['webhook-id']));
      expect(ids.size).toBe(1);
      const verifier = new Webhook(secret);
      for (const r of received) {
        const payload = verifier.verify(r.body, {
          'webhook-id': r.headers['webhook-id'] as string,
          'webhook-timestamp': r.headers['webhook-timestamp'] as string,
          'webhook-signature': r.headers['webhook-signature'] as string,
        }) as { type: string; data: { jobId: string } };
        expect(payload.type).toBe('job.completed');
        expect(payload.data.jobId).toBe('job-123');
      }
      // A tampered body fails the same verifier.
      expect(() =>
        verifier.verify(received[0].body.replace('job-123', 'job-999'), {
          'webhook-id': received[0].headers['webhook-id'] as string,
          'webhook-timestamp': received[0].headers['webhook-timestamp'] as string,
          'webhook-signature': received[0].headers['webhook-signature'] as string,
        }),
      ).toThrow();

      for (let i = 0; i < 50; i++) {
        const [{ n }] = await ds.query(
          'SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1',
          [ep.id],
        );
        if (n === 3) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const log = await ds.query(
        'SELECT attempt, status_code, error FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY attempt',
        [ep.id],
      );
      expect(log).toEqual([
        { attempt: 1, status_code: 500, error: 'HTTP 500' },
        { attempt: 2, status_code: 500, error: 'HTTP 500' },
        { attempt: 3, status_code: 204, error: null },
      ]);
    } finally {
      server.close();
    }
  });

  it('refuses every private, loopback, link-local and metadata address: 0 connections reach the canary', async () => {
    const canary = await listen((_req, res) => res.end('ok'));
    const p = canary.port;
    const none = new Set<string>();
    const urls = [
      `http://127.0.0.1:${p}/`,
      `http://[::1]:${p}/`,
      `http://2130706433:${p}/`,
      `http://0x7f000001:${p}/`,
      `http://[::ffff:127.0.0.1]:${p}/`,
      `http://localhost:${p}/`,
      `http://10.0.0.1:${p}/`,
      `http://172.16.0.1:${p}/`,
      `http://192.168.1.1:${p}/`,
      `http://169.254.169.254/latest/meta-data/`,
      `http://100.64.0.1:${p}/`,
      `http://[fc00::1]:${p}/`,
      `http://[fe80::1]:${p}/`,
      `http://0.0.0.0:${p}/`,
      `file:///etc/passwd`,
    ];
    try {
      for (const url of urls) {
        const res = await sendWebhook(url, {}, '{}', { timeoutMs: 2000, allowList: none });
        expect({ url, status: res.statusCode }).toEqual({ url, status: null });
        expect(res.error).toMatch(/Refused to connect|only http and https|ENOTFOUND/);
      }
      expect(canary.connections()).toBe(0);
    } finally {
      canary.server.close();
    }
  });

  it('does not follow a redirect to a private address', async () => {
    const canary = await listen((_req, res) => res.end('ok'));
    const redirector = await listen((_req, res) => {
      res.statusCode = 302;
      res.setHeader('Location', `http://127.0.0.1:${canary.port}/`);
      res.end();
    });
    try {
      const res = await sendWebhook(`http://127.0.0.1:${redirector.port}/`, {}, '{}', {
        timeoutMs: 2000,
        allowList: new Set(['127.0.0.1']),
      });
      expect(res.statusCode).toBe(302);
      expect(canary.connections()).toBe(0);
    } finally {
      canary.server.close();
      redirector.server.close();
    }
  });
});
