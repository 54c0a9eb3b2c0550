import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import request from 'supertest';
import { BlobStore } from '@csv-mapper/queue';
import { H, signUp as signUpUser, waitForJob } from './support/api-test-app';
import { JobsService } from '../src/jobs/jobs.service';
import { closeAll, startAppAndWorker } from './support/app-and-worker';

// Background jobs and webhook endpoints as their owner sees them, against real Postgres, Redis and a worker.

describe('jobs and webhooks api (e2e)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext;

  beforeAll(async () => ({ app, worker } = await startAppAndWorker()));
  afterAll(() => closeAll(worker, app));

  const signUp = (plan: string) => signUpUser(app, plan);

  it('lists, polls and downloads a background job for its owner only', async () => {
    const owner = await signUp('business');
    const other = await signUp('business');
    const store = app.get(BlobStore);
    const w = store.createWriter('upload', owner.userId, 'export.csv');
    await w.write(Buffer.from('Name,Qty\nWidget,3\n"Gadget, large",5\n'));
    await w.commit({});
    const jobId = await app.get(JobsService).enqueueProcessCsv(
      'business',
      {
        userId: owner.userId,
        dataFileId: w.id,
        templateFileId: 'virtual-template-x',
        templateHeaders: ['Title', 'Variant Inventory Qty'],
        mappings: [
          { templateColumn: 'Title', dataColumn: 'Name' },
          { templateColumn: 'Variant Inventory Qty', dataColumn: 'Qty' },
        ],
        maxRows: 2,
        totalRows: 2,
        dataFilename: 'export.csv',
        fileSizeBytes: 40,
      },
      `req-${jobId0()}`,
    );

    const view = await waitForJob(owner.agent, jobId);
    expect(view).toMatchObject({
      id: jobId,
      state: 'completed',
      progress: 100,
      rowsProcessed: 2,
      totalRows: 2,
      resultUrl: `/api/jobs/${jobId}/result`,
    });

    const list = (await owner.agent.get('/api/jobs').expect(200)).body as Array<{ id: string }>;
    expect(list.map((j) => j.id)).toContain(jobId);
    expect((await other.agent.get('/api/jobs').expect(200)).body).toEqual([]);

    const file = await owner.agent.get(`/api/jobs/${jobId}/result`).expect(200);
    expect(file.headers['content-disposition']).toBe('attachment; filename="mapped_export.csv"');
    expect(file.text).toBe('Title,Variant Inventory Qty\r\nWidget,3\r\n"Gadget, large",5\r\n');

    // Another user's id answers exactly like a missing one.
    const foreign = await other.agent.get(`/api/jobs/${jobId}`).expect(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    await other.agent.get(`/api/jobs/${jobId}/result`).expect(404);
    await request(app.getHttpServer()).get(`/api/jobs/${jobId}`).expect(401);

    // Once the result blob has expired the download says so.
    await store.delete(view.resultUrl ? `result-${jobId}` : 'x', owner.userId);
    const gone = await owner.agent.get(`/api/jobs/${jobId}/result`).expect(410);
    expect(gone.body.code).toBe('RESULT_EXPIRED');
  });

  it('keeps webhooks to plans with webhook support', async () => {
    const free = await signUp('free');
    const res = await free.agent.get('/api/webhooks').expect(403);
    expect(res.body).toEqual({
      error: 'Webhooks are available on the Business and Enterprise plans. Upgrade to use them.',
      code: 'PLAN_FEATURE_UNAVAILABLE',
    });
  });

  it('creates an endpoint with a secret shown once, updates, tests and deletes it; others get 404', async () => {
    const biz = await signUp('business');
    const other = await signUp('business');
    const bad = await biz.agent.post('/api/webhooks').set(H).send({ url: 'ftp://example.com/x' }).expect(400);
    expect(bad.body.code).toBe('VALIDATION_FAILED');

    const created = (
      await biz.agent.post('/api/webhooks').set(H).send({ url: 'https://hooks.example.com/csv' }).expect(201)
    ).body;
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{40,}={0,2}$/);
    expect(created.events).toEqual(['job.completed', 'job.failed', 'job.cancelled', 'batch.completed']);
    const list = (await biz.agent.get('/api/webhooks').expect(200)).body;
    expect(list).toHaveLength(1);
    expect(list[0].secret).toBeUndefined();

    const patched = (
      await biz.agent
        .patch(`/api/webhooks/${created.id}`)
        .set(H)
        .send({ enabled: false, events: ['job.failed'] })
        .expect(200)
    ).body;
    expect(patched).toMatchObject({ enabled: false, events: ['job.failed'] });
    await biz.agent.post(`/api/webhooks/${created.id}/test`).set(H).expect(202);

    await other.agent.patch(`/api/webhooks/${created.id}`).set(H).send({ enabled: true }).expect(404);
    await other.agent.delete(`/api/webhooks/${created.id}`).set(H).expect(404);
    await biz.agent.delete(`/api/webhooks/${created.id}`).set(H).expect(204);
    expect((await biz.agent.get('/api/webhooks').expect(200)).body).toEqual([]);
  });
});

let seq = 0;
function jobId0(): string {
  seq += 1;
  return `${Date.now()}-${seq}`;
}
