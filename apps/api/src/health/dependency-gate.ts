import { createServer, type Server } from 'node:http';

// Issue 28: the api starts while Postgres or Redis is down. Until both answer, its port is held by this
// small server, which answers every request 503 `{ error, code }` (load balancers and clients see a clear
// "retry later" instead of a refused connection); once they answer, the real app takes the port.

const BODY = JSON.stringify({
  error: 'CSV Mapper is starting and waiting for its database and queue. Try again in a few seconds.',
  code: 'SERVICE_UNAVAILABLE',
});

export interface GateOptions {
  port: number;
  host: string;
  /** Resolves when the dependencies answer; rejects with `unreachable(err) === true` while they do not. */
  check: () => Promise<void>;
  unreachable: (err: unknown) => boolean;
  log: (line: string) => void;
  /** Waits between checks: doubling from minMs to maxMs. */
  minMs?: number;
  maxMs?: number;
}

/**
 * Resolves once `check` passes, with a `release` that frees the port (call it just before the real app
 * listens, so the port answers throughout); rethrows any error that is not "unreachable" (an evicting Redis).
 */
export async function waitForDependencies(o: GateOptions): Promise<() => Promise<void>> {
  const minMs = o.minMs ?? 500;
  const maxMs = o.maxMs ?? 5000;
  let server: Server | undefined;
  let delay = minMs;
  let lastLog = 0;
  try {
    for (;;) {
      try {
        await o.check();
        const held = server;
        server = undefined;
        return () => (held ? close(held) : Promise.resolve());
      } catch (err) {
        if (!o.unreachable(err)) throw err;
        if (Date.now() - lastLog >= 10_000) {
          lastLog = Date.now();
          o.log(`${(err as Error).message} — waiting for it; answering 503 meanwhile`);
        }
      }
      server ??= await listen(o.port, o.host);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(maxMs, delay * 2);
    }
  } finally {
    if (server) await close(server);
  }
}

function listen(port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    res.writeHead(503, {
      'content-type': 'application/json; charset=utf-8',
      'retry-after': '5',
      connection: 'close',
    });
    res.end(BODY);
    req.resume();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
