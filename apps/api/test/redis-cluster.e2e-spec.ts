import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { closeBullClusters } from '@csv-mapper/queue';
import { startRedisCluster, type RedisCluster } from '../../../bench/support/redis-cluster';
import { H, signUp, startApp } from './support/api-test-app';
import { runKundenJob } from './support/kunden';
import { startReceiver, verifyDelivery, type Receiver } from './support/webhook-receiver';
import { startWorker } from '../../worker/test/support/start-worker';

// The api and a worker on a real 3-master Redis Cluster (REDIS_CLUSTER_NODES, ioredis' Cluster client):
// uploads into the Redis blob store (MULTI + RENAME per owner slot), a queued job run by the worker
// (BullMQ under one hash-tagged prefix), its result downloaded, the job.completed webhook received, and
// the login throttle's two-bucket script. Keys end up spread over the masters.

describe('on a Redis Cluster (3 masters)', () => {
  let cluster: RedisCluster;
  let app: INestApplication;
  let worker: INestApplicationContext;
  let receiver: Receiver;

  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    receiver = await startReceiver();
    const env = {
      REDIS_CLUSTER_NODES: cluster.nodesEnv,
      REDIS_PREFIX: `csvm-cluster-${randomBytes(3).toString('hex')}:`,
      SYNC_ROW_LIMIT: '5',
      WEBHOOK_ALLOWED_IPS: `127.0.0.1:${receiver.port}`,
    };
    app = await startApp(env);
    worker = await startWorker(env);
  }, 60_000);
  afterAll(async () => {
    await worker?.close();
    await app?.close();
    await closeBullClusters();
    await receiver?.close();
    await cluster?.stop();
  });

  it('uploads, runs a queued job, serves its result and delivers its webhook', async () => {
    const { agent } = await signUp(app, 'business');
    const endpoint = (
      await agent
        .post('/api/webhooks')
        .set(H)
        .send({ url: receiver.url('/cluster') })
        .expect(201)
    ).body as { secret: string };
    const { jobId, view } = await runKundenJob(agent, 2000, 0);
    expect(view).toMatchObject({ state: 'completed', rowsProcessed: 2000 });
    const csv = await agent.get(view.resultUrl).redirects(1).expect(200);
    const out = csv.text.split(/\r?\n/);
    expect(out.slice(0, 3)).toEqual(['Name,Amount', 'Kunde 0,0.50', 'Kunde 1,1.50']);
    expect(out.filter(Boolean)).toHaveLength(2001);

    const [delivery] = await receiver.waitFor('/cluster', 1, 20_000);
    const event = verifyDelivery<{ type: string; data: { jobId: string; rowsWritten: number } }>(
      endpoint.secret,
      delivery,
    );
    expect(event).toMatchObject({
      type: 'job.completed',
      data: { jobId, rowsWritten: 2000 },
    });

    // The keys are not all in one slot: at least two masters hold some.
    expect((await cluster.keyCounts()).filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
  });

  it('throttles failed logins (one script over the account and network buckets)', async () => {
    const { username } = await signUp(app);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await request(app.getHttpServer())
        .post('/api/login')
        .set(H)
        .send({ identifier: username, password: 'Wrong-Pass1!' });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  });
});
