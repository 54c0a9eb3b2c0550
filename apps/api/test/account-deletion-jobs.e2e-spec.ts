import type { INestApplication } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUES } from '@csv-mapper/queue';
import { REDIS } from '../src/redis/redis.module';
import { H, signUp, startApp } from './support/api-test-app';

// Issue 28: deleting an account removes its queued background jobs from Redis. Their payloads name the
// files and carry the mappings; they used to stay for 7 days. No worker runs here, so the job stays queued
// as it would behind a paused or busy worker.

describe('account deletion and queued jobs (e2e)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app.close());

  /** Every Redis key under this run's prefix whose value (string, hash or list) holds `needle`. */
  async function keysHolding(needle: string): Promise<string[]> {
    const redis = app.get<Redis>(REDIS);
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(
        cursor,
        'MATCH',
        `${process.env.REDIS_PREFIX ?? 'csvm:'}*`,
        'COUNT',
        500,
      );
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        const values =
          type === 'hash'
            ? Object.values(await redis.hgetall(key))
            : type === 'string'
              ? [(await redis.get(key)) ?? '']
              : type === 'list'
                ? await redis.lrange(key, 0, 50)
                : [];
        if (values.some((v) => v.includes(needle))) found.push(key);
      }
    } while (cursor !== '0');
    return found;
  }

  it('a queued job, its file names and mapping are gone from Redis after the account is deleted', async () => {
    const { agent } = await signUp(app, 'business');
    const marker = `Kundennummer_${Date.now()}`;
    const t = await agent
      .post('/api/upload')
      .set(H)
      .field('type', 'template')
      .attach('file', Buffer.from('Name,Customer\n'), 'template.csv')
      .expect(201);
    const d = await agent
      .post('/api/upload')
      .set(H)
      .field('type', 'data')
      .attach('file', Buffer.from(`Kunde,${marker}\nAna,1\n`), `export-${marker}.csv`)
      .expect(201);
    const queued = await agent
      .post('/api/process')
      .set(H)
      .send({
        templateFileId: t.body.id,
        dataFileId: d.body.id,
        async: true,
        mappings: [
          { templateColumn: 'Name', dataColumn: 'Kunde' },
          { templateColumn: 'Customer', dataColumn: marker },
        ],
      })
      .expect(202);
    const jobId = queued.body.jobId as string;
    const queue = app.get<Queue>(getQueueToken(QUEUES.csvJobs));
    expect(await queue.getJobState(jobId)).toMatch(/waiting|prioritized/);
    const before = await keysHolding(marker);
    expect(before.some((k) => k.endsWith(jobId))).toBe(true);

    await agent.post('/api/user/delete-account').set(H).send({ password: 'Tr1cky-Mapper!' }).expect(200);

    expect(await queue.getJob(jobId)).toBeUndefined();
    expect(await queue.getJobState(jobId)).toBe('unknown');
    expect(await keysHolding(marker)).toEqual([]);
  });
});
