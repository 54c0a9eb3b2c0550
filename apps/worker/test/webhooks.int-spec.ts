import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAllowList } from '../src/webhooks/ssrf-guard';
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

// Deliveries from a real job through to a receiver are in apps/api/test/webhooks-flow.e2e-spec.ts; this file
// holds the sender's SSRF rules against real sockets.
describe('outgoing webhooks: SSRF guard at connect time (real sockets)', () => {
  it('refuses every private, loopback, link-local and metadata address: 0 connections reach the canary', async () => {
    const canary = await listen((_req, res) => res.end('ok'));
    const p = canary.port;
    const none = parseAllowList('');
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
        allowList: parseAllowList(`127.0.0.1:${redirector.port},127.0.0.1:${canary.port}`),
      });
      expect(res.statusCode).toBe(302);
      expect(canary.connections()).toBe(0);
    } finally {
      canary.server.close();
      redirector.server.close();
    }
  });

  it('an allowed ip:port opens that port only; a bare ip allows 80 and 443 only', async () => {
    const allowed = await listen((_req, res) => res.end('ok'));
    const canary = await listen((_req, res) => res.end('ok'));
    try {
      const rules = parseAllowList(`127.0.0.1:${allowed.port}`);
      const ok = await sendWebhook(`http://127.0.0.1:${allowed.port}/`, {}, '{}', {
        timeoutMs: 2000,
        allowList: rules,
      });
      expect(ok).toMatchObject({ statusCode: 200, responseSnippet: 'ok', error: null });
      const literal = await sendWebhook(`http://127.0.0.1:${canary.port}/`, {}, '{}', {
        timeoutMs: 2000,
        allowList: rules,
      });
      expect(literal.error).toBe(
        `Refused to connect to 127.0.0.1 port ${canary.port}: private, loopback, link-local and metadata addresses are not allowed`,
      );
      // A name is refused without saying what it resolved to (the text reaches the tenant's delivery log).
      const named = await sendWebhook(`http://localhost:${canary.port}/`, {}, '{}', {
        timeoutMs: 2000,
        allowList: rules,
      });
      expect(named.error).toBe(
        `Refused to connect to localhost port ${canary.port}: it resolves to a private, loopback, link-local or metadata address, which webhooks may not reach`,
      );
      const bare = await sendWebhook(`http://127.0.0.1:${canary.port}/`, {}, '{}', {
        timeoutMs: 2000,
        allowList: parseAllowList('127.0.0.1,127.0.0.0/8'),
      });
      expect(bare.error).toMatch(/^Refused to connect/);
      expect(canary.connections()).toBe(0);
      expect(allowed.connections()).toBe(1);
    } finally {
      allowed.server.close();
      canary.server.close();
    }
  });
});
