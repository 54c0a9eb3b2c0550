import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { H, signUp, startApp, waitForJob, type Agent } from './support/api-test-app';
import { startWorker } from '../../worker/test/support/start-worker';

// Issue 30, background jobs: rows an earlier run of a saved mapping exported, flagged by a flag-mode run,
// are listed by the job's review (GET /api/jobs/:id/issues) exactly as a sync run's review lists them.
// Two overlapping price lists go through the same saved mapping as background jobs (worker in process).

const HEAD = 'SKU,Title,Price\n';
const LIST_1 = ['A-100,Kettle,24.99', 'A-101,Toaster,31.50', 'A-102,Mug,4.20', 'A-103,Teapot,18.00'];
// The second list repeats unchanged, then two new products.
const LIST_2 = [...LIST_1.slice(2), 'A-104,Grater,6.75', 'A-105,Whisk,3.10'];
const file = (lines: string[]) => Buffer.from(HEAD + lines.join('\n') + '\n');

describe('saved mapping run history: background jobs in review (e2e)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext;

  beforeAll(async () => {
    app = await startApp();
    worker = await startWorker();
  });
  afterAll(async () => {
    await worker?.close();
    await app?.close();
  });

  const runAsync = async (agent: Agent, mappingId: string, lines: string[], name: string) => {
    const res = await agent
      .post(`/api/mappings/${mappingId}/runs`)
      .set(H)
      .field('async', 'true')
      .attach('file', file(lines), name)
      .expect(202);
    const job = await waitForJob(agent, res.body.jobId as string);
    expect(job.state).toBe('completed');
    return job.id;
  };

  it("flag mode: the second job's review lists the overlapping rows with rule alreadyExported", async () => {
    const { agent, username } = await signUp(app, 'business');
    const saved = await agent
      .post('/api/mappings')
      .set(H)
      .send({
        name: 'Supplier prices to shop',
        templateHeaders: ['sku', 'name', 'price'],
        dataHeaders: ['SKU', 'Title', 'Price'],
        mappings: [
          { templateColumn: 'sku', dataColumn: 'SKU' },
          { templateColumn: 'name', dataColumn: 'Title' },
          { templateColumn: 'price', dataColumn: 'Price' },
        ],
        duplicates: 'flag',
        historyKeyColumns: ['sku'],
      })
      .expect(201);
    const mappingId = saved.body.id as string;

    const first = await runAsync(agent, mappingId, LIST_1, 'prices-oct.csv');
    const none = await agent.get(`/api/jobs/${first}/issues?rule=alreadyExported`).expect(200);
    expect(none.body.total).toBe(0);

    const second = await runAsync(agent, mappingId, LIST_2, 'prices-nov.csv');
    const job = (await agent.get(`/api/jobs/${second}`).expect(200)).body as {
      totals: Record<string, unknown>;
    };
    expect(job.totals).toMatchObject({ rowsWritten: 4, rowsAlreadyExported: 2, rowsSkipped: 0 });
    const review = await agent.get(`/api/jobs/${second}/issues?rule=alreadyExported`).expect(200);
    expect(review.body.total).toBe(2);
    expect(review.body.byRule).toMatchObject({ alreadyExported: 2 });
    const issues = review.body.issues as Array<{ row: number; rule: string; message: string }>;
    expect(issues.map((i) => [i.row, i.rule])).toEqual([
      [1, 'alreadyExported'],
      [2, 'alreadyExported'],
    ]);
    expect(issues[0].message).toMatch(new RegExp(`^Exported on .+ by ${username}$`));
    // All four rows are in the result (flag writes them).
    const result = await agent.get(`/api/jobs/${second}/result`).expect(200);
    expect(String(result.text).trim().split(/\r?\n/)).toHaveLength(5);
  });
});
