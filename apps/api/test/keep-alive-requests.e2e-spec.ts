import { Agent, request } from 'node:http';
import type { Socket } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { H, startApp } from './support/api-test-app';
import { listen } from './support/raw-http';

// Issue 28, finding 5 (the api's memory after the fuzz): the body timeout put a 'close' listener on the
// socket for every request. One keep-alive connection serves many requests, so each request and response
// stayed reachable from the socket until the connection closed — the heap grew ~15 KB per request
// (bench:api-memory: 56 → 371 MB after 20,000 bodies; flat at 61 MB since).

describe('many requests on one keep-alive connection (e2e)', () => {
  let app: INestApplication;
  let port: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    app = await startApp({ LOG_LEVEL: 'warn' });
    port = await listen(app);
    app.getHttpServer().on('connection', (s: Socket) => sockets.push(s));
  });
  afterAll(async () => {
    await app.close();
  });

  it('leaves no listener per request on the connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = () =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ username: 'nobody', password: 'wrong-password' });
        const req = request(
          {
            agent,
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/login',
            headers: { ...H, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push(await post());
    agent.destroy();

    expect(new Set(statuses).size).toBe(1);
    expect(statuses[0]).toBeGreaterThanOrEqual(400);
    expect(statuses[0]).toBeLessThan(500);
    // All 40 went over one connection; what it holds does not grow with the requests it served.
    expect(sockets).toHaveLength(1);
    expect(sockets[0].listenerCount('close')).toBeLessThan(10);
  });
});
