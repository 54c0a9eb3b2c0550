import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { H, signUp, startApp, type Agent } from './support/api-test-app';
import { startWorker } from '../../worker/test/support/start-worker';
import { freePort } from '../../../bench/support/stack';

// Issue 28: the delivery log a tenant reads names the host of their URL, never what it resolved to. A
// webhook URL with an internal hostname used to answer "Refused to connect to 10.x.y.z …" or
// "connect ECONNREFUSED 10.x.y.z:port": a way to map internal DNS. Here `localhost` plays that name.

describe('webhook delivery errors shown to tenants (e2e)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext;
  let allowedClosedPort: number;

  beforeAll(async () => {
    allowedClosedPort = await freePort();
    app = await startApp();
    worker = await startWorker({ WEBHOOK_ALLOWED_IPS: `127.0.0.1:${allowedClosedPort}` });
  });
  afterAll(async () => {
    await worker?.close();
    await app?.close();
  });

  async function firstLoggedError(agent: Agent, url: string): Promise<unknown> {
    const ep = await agent.post('/api/webhooks').set(H).send({ url }).expect(201);
    await agent.post(`/api/webhooks/${ep.body.id}/test`).set(H).expect(202);
    for (let i = 0; i < 200; i++) {
      const rows = (await agent.get(`/api/webhooks/${ep.body.id}/deliveries`).expect(200)).body as {
        error: string | null;
      }[];
      if (rows.length) return rows[0].error;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('no delivery logged');
  }

  it('a name that resolves to a private address is refused without the address', async () => {
    const { agent } = await signUp(app, 'business');
    const port = await freePort();
    const error = await firstLoggedError(agent, `http://localhost:${port}/hook`);
    expect(error).toBe(
      `Refused to connect to localhost port ${port}: it resolves to a private, loopback, link-local or metadata address, which webhooks may not reach`,
    );
  });

  it('a refused connection names the URL host and port, not the resolved address', async () => {
    const { agent } = await signUp(app, 'business');
    const error = await firstLoggedError(agent, `http://localhost:${allowedClosedPort}/hook`);
    expect(error).toBe(`Connection refused by localhost port ${allowedClosedPort}`);
  });
});
