import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

// A real HTTP receiver on 127.0.0.1 for webhook flow tests: records every request per path (with the
// time it arrived) and answers from a per-path script of responses (the last one repeats).

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface Receiver {
  port: number;
  url(path: string): string;
  /** Answers for a path, in order; the last repeats. Default: 200 `{"ok":true}`. */
  script(path: string, answers: ScriptedAnswer[]): void;
  /** Called when a request arrives, before it is answered (e.g. to fetch the job it names). */
  onRequest(path: string, fn: (r: Received) => Promise<void>): void;
  at(path: string): Received[];
  connections(): number;
  waitFor(path: string, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const scripts = new Map<string, ScriptedAnswer[]>();
  const hooks = new Map<string, (r: Received) => Promise<void>>();
  let connections = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(r);
      const answers = scripts.get(r.path) ?? [];
      const answer = (answers.length > 1 ? answers.shift() : answers[0]) ?? {
        status: 200,
        body: '{"ok":true}',
      };
      void (hooks.get(r.path)?.(r) ?? Promise.resolve()).finally(() => {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(answer.body ?? '');
      });
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const at = (path: string) => received.filter((r) => r.path === path);
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    script: (path, answers) => void scripts.set(path, [...answers]),
    onRequest: (path, fn) => void hooks.set(path, fn),
    at,
    connections: () => connections,
    async waitFor(path, count, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (at(path).length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
      return at(path);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Verifies a received delivery with the `standardwebhooks` package, as a consumer would. */
export function verifyDelivery<T>(secret: string, r: Received): T {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': r.headers['webhook-id'] as string,
    'webhook-timestamp': r.headers['webhook-timestamp'] as string,
    'webhook-signature': r.headers['webhook-signature'] as string,
  }) as T;
}
