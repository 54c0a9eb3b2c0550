import type { INestApplication } from '@nestjs/common';
import type { RedisClient } from '@csv-mapper/queue';
import { REDIS } from '../src/redis/redis.module';
import { H, signUp, startApp, type Agent } from './support/api-test-app';
import { BANK_TO_BOOKS_MAPPING } from './support/bank-to-books';

// Issue 30, one call: POST /api/mappings/:id/runs takes the template as a multipart `templateFile` part
// beside the data `file` (no upload beforehand); `templateFileId` still works, and sending both is refused.
// The template here has another column order and a semicolon, so the answer shows which template ran.

const TEMPLATE = 'Payee;Date;Amount\r\n';
const DATA = 'Booking date,Description,Amount\n2026-10-01,TESCO,-23.41\n2026-10-02,SALARY ACME,2450.00\n';
const MAPPED = 'Payee;Date;Amount\r\nTESCO;2026-10-01;-23.41\r\nSALARY ACME;2026-10-02;2450.00\r\n';

describe('POST /api/mappings/:id/runs with a templateFile part (e2e)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  const saveMapping = async (agent: Agent) =>
    (await agent.post('/api/mappings').set(H).send(BANK_TO_BOOKS_MAPPING).expect(201)).body.id as string;
  /** TEMPLATE uploaded beforehand (POST /api/upload/template), for runs that name it by templateFileId. */
  const uploadTemplate = (agent: Agent) =>
    agent.post('/api/upload/template').set(H).attach('file', Buffer.from(TEMPLATE), 'books.csv').expect(201);

  it('runs the saved mapping with the template sent in the same request', async () => {
    const { agent } = await signUp(app);
    const id = await saveMapping(agent);
    const res = await agent
      .post(`/api/mappings/${id}/runs`)
      .set(H)
      .attach('file', Buffer.from(DATA), 'statement.csv')
      .attach('templateFile', Buffer.from(TEMPLATE), 'books.csv')
      .expect(200);
    expect(res.body.csvData).toBe(MAPPED);
    expect(res.body.totals).toMatchObject({ rowsRead: 2, rowsWritten: 2 });
    // the run is recorded like any other
    const runs = (await agent.get(`/api/mappings/${id}/runs`).expect(200)).body as {
      runs: Array<{ dataFilename: string; rowsWritten: number }>;
    };
    expect(runs.runs).toHaveLength(1);
    expect(runs.runs[0]).toMatchObject({ dataFilename: 'statement.csv', rowsWritten: 2 });
  });

  it('templateFileId still works; both at once, or a template that is not CSV, is refused', async () => {
    const { agent } = await signUp(app);
    const id = await saveMapping(agent);
    const uploaded = await uploadTemplate(agent);
    const byId = await agent
      .post(`/api/mappings/${id}/runs`)
      .set(H)
      .field('templateFileId', uploaded.body.id as string)
      .attach('file', Buffer.from(DATA), 'statement.csv')
      .expect(200);
    expect(byId.body.csvData).toBe(MAPPED);

    const both = await agent
      .post(`/api/mappings/${id}/runs`)
      .set(H)
      .field('templateFileId', uploaded.body.id as string)
      .attach('file', Buffer.from(DATA), 'statement.csv')
      .attach('templateFile', Buffer.from(TEMPLATE), 'books.csv')
      .expect(400);
    expect(both.body.error).toBe(
      'Send the template either as a templateFile part or as templateFileId, not both.',
    );

    const notCsv = await agent
      .post(`/api/mappings/${id}/runs`)
      .set(H)
      .attach('file', Buffer.from(DATA), 'statement.csv')
      .attach('templateFile', Buffer.from('GIF89a'), 'books.gif')
      .expect(415);
    expect(notCsv.body.code).toBe('UNSUPPORTED_FILE_TYPE');

    // a second template part is one file too many
    const twice = await agent
      .post(`/api/mappings/${id}/runs`)
      .set(H)
      .attach('file', Buffer.from(DATA), 'statement.csv')
      .attach('templateFile', Buffer.from(TEMPLATE), 'a.csv')
      .attach('templateFile', Buffer.from(TEMPLATE), 'b.csv')
      .expect(400);
    expect(twice.body.code).toBe('INVALID_UPLOAD');
    // none of the refused runs was recorded
    const runs = (await agent.get(`/api/mappings/${id}/runs`).expect(200)).body as { total: number };
    expect(runs.total).toBe(1);
  });

  it('a refused run keeps none of the files it sent (the template is checked before the data file is kept)', async () => {
    const { agent, userId } = await signUp(app);
    const id = await saveMapping(agent);
    const uploaded = await uploadTemplate(agent);
    const redis = app.get<RedisClient>(REDIS);
    const storedFiles = async () => (await redis.keys(`${process.env.REDIS_PREFIX}*${userId}*:meta`)).sort();
    const before = await storedFiles();
    expect(before.length).toBeGreaterThan(0); // the uploaded template: the pattern finds stored files
    const run = () => agent.post(`/api/mappings/${id}/runs`).set(H);

    await run()
      .attach('file', Buffer.from(DATA), 'statement.csv')
      .attach('templateFile', Buffer.from('GIF89a'), 'books.gif')
      .expect(415);
    await run()
      .field('templateFileId', uploaded.body.id as string)
      .attach('file', Buffer.from(DATA), 'statement.csv')
      .attach('templateFile', Buffer.from(TEMPLATE), 'books.csv')
      .expect(400);
    const badAsync = await run()
      .field('async', 'maybe')
      .attach('file', Buffer.from(DATA), 'statement.csv')
      .attach('templateFile', Buffer.from(TEMPLATE), 'books.csv')
      .expect(400);
    expect(badAsync.body).toEqual({ code: 'VALIDATION_FAILED', error: 'async must be true or false.' });
    // a data file that is refused takes the template sent beside it along
    await run()
      .attach('file', Buffer.from('Booking date,Description,Amount\n'), 'empty.csv')
      .attach('templateFile', Buffer.from(TEMPLATE), 'books.csv')
      .expect(400);
    expect(await storedFiles()).toEqual(before);
  });

  it('the OpenAPI document names the templateFile part', async () => {
    const { agent } = await signUp(app);
    const doc = (await agent.get('/api/docs/openapi.json').expect(200)).body as {
      paths: Record<
        string,
        Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>
      >;
    };
    const body = doc.paths['/api/mappings/{id}/runs'].post.requestBody.content['multipart/form-data'];
    expect(body.schema).toMatchObject({
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary' },
        templateFile: { type: 'string', format: 'binary' },
        templateFileId: { type: 'string' },
      },
    });
  });
});
