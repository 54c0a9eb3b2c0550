import { createServer } from 'node:net';
import { createRedis, waitForReady } from '../src/redis';

// The api's fail-fast Redis client must be connected before requests arrive (else the first ones fail).
describe('waitForReady', () => {
  it('resolves true once a fresh fail-fast client has connected, and it then answers at once', async () => {
    const client = createRedis(process.env.REDIS_URL as string, 'command');
    try {
      expect(client.status).not.toBe('ready');
      expect(await waitForReady(client, 5000)).toBe(true);
      expect(await client.ping()).toBe('PONG');
    } finally {
      client.disconnect();
    }
  });

  it('gives up after the timeout when Redis does not answer, without throwing', async () => {
    const port = await new Promise<number>((res) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => res(p));
      });
    });
    const client = createRedis(`redis://127.0.0.1:${port}`, 'command', { retryStrategy: () => null });
    try {
      const t0 = Date.now();
      expect(await waitForReady(client, 300)).toBe(false);
      expect(Date.now() - t0).toBeLessThan(2000);
    } finally {
      client.disconnect();
    }
  });
});
