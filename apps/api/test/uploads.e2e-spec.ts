import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { signUp, startApp } from './support/api-test-app';
import { uploadFile as upload } from './support/uploads';

// Uploads against the real Postgres + Redis: limits, every rejection, the record's shape, ownership.

function dataRows(n: number): string {
  const lines = ['Full Name,Email Address,Amount'];
  for (let i = 1; i <= n; i++) lines.push(`Person ${i},p${i}@example.com,${i}.50`);
  return lines.join('\n') + '\n';
}

describe('POST /api/upload (e2e)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app.close());

  it('refuses a visitor who is not signed in', async () => {
    const res = await request(app.getHttpServer())
      .post('/api/upload')
      .set('X-Requested-With', 'csv-mapper')
      .field('type', 'template')
      .attach('file', Buffer.from('A,B\n'), { filename: 't.csv', contentType: 'text/csv' });
    expect(res.status).toBe(401);
  });

  it('stores a template and answers the file record with the inspection', async () => {
    const { agent } = await signUp(app);
    const res = await upload(agent, 'template', 'Name;Email;Phone\n').expect(201);
    expect(res.body).toMatchObject({
      filename: 'template.csv',
      headers: ['Name', 'Email', 'Phone'],
      type: 'template',
      rowCount: 0,
      delimiter: ';',
      encoding: 'utf-8',
      headerRow: 1,
      data: [],
    });
    expect(typeof res.body.id).toBe('string');
    expect(new Date(res.body.uploadedAt).getTime()).toBeGreaterThan(0);
    expect(res.body.exceedsRowLimit).toBeUndefined();
  });

  it('returns only the first 5 rows of a data file as its preview', async () => {
    const { agent } = await signUp(app);
    const res = await upload(agent, 'data', dataRows(12)).expect(201);
    expect(res.body.rowCount).toBe(12);
    expect(res.body.data).toHaveLength(5);
    expect(res.body.data[0]).toEqual(['Person 1', 'p1@example.com', '1.50']);
  });

  it('accepts a .csv name whatever the content type, and text/csv whatever the name', async () => {
    const { agent } = await signUp(app);
    await upload(agent, 'template', 'A,B\n', 'export.CSV', 'application/vnd.ms-excel').expect(201);
    await upload(agent, 'template', 'A,B\n', 'export.txt', 'text/csv').expect(201);
  });

  it('refuses files that are not CSV: other types 415, binary 415, empty 400, template without names 400', async () => {
    const { agent } = await signUp(app);
    const notCsv = await upload(agent, 'data', 'A,B\n1,2\n', 'report.pdf', 'application/pdf').expect(415);
    expect(notCsv.body).toEqual({
      code: 'UNSUPPORTED_FILE_TYPE',
      error: expect.stringContaining('not a CSV file or an Excel workbook'),
    });
    // A ZIP signature makes it a workbook candidate whatever the name; this one is no workbook.
    const zip = await upload(
      agent,
      'data',
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 1, 2, 3]),
      'book.csv',
    ).expect(415);
    expect(zip.body.code).toBe('UNSUPPORTED_WORKBOOK');
    expect(zip.body.error).toMatch(/not an Excel workbook/);
    const binary = await upload(
      agent,
      'data',
      Buffer.from([0x25, 0x50, 0x44, 0x46, 0, 1, 2]),
      'a.csv',
    ).expect(415);
    expect(binary.body.code).toBe('BINARY_FILE');
    const empty = await upload(agent, 'template', '', 'empty.csv').expect(400);
    expect(empty.body).toEqual({
      code: 'EMPTY_FILE',
      error: 'The file is empty. Upload a CSV file with a header row.',
    });
    const noNames = await upload(agent, 'template', ',,\n', 'blank.csv').expect(400);
    expect(noNames.body.code).toBe('EMPTY_HEADER');
    const noRows = await upload(agent, 'data', 'A,B\n', 'rows.csv').expect(400);
    expect(noRows.body.code).toBe('NO_DATA_ROWS');
  });

  it('refuses a malformed request: no file, no type, two files, wrong field', async () => {
    const { agent } = await signUp(app);
    const noFile = await agent
      .post('/api/upload')
      .set('X-Requested-With', 'csv-mapper')
      .field('type', 'data')
      .expect(400);
    expect(noFile.body.code).toBe('NO_FILE');
    const json = await agent
      .post('/api/upload')
      .set('X-Requested-With', 'csv-mapper')
      .send({ type: 'data' })
      .expect(400);
    expect(json.body.code).toBe('NO_FILE');
    const noType = await agent
      .post('/api/upload')
      .set('X-Requested-With', 'csv-mapper')
      .attach('file', Buffer.from('A\n1\n'), { filename: 'a.csv', contentType: 'text/csv' })
      .expect(400);
    expect(noType.body.code).toBe('INVALID_UPLOAD_TYPE');
    const two = await agent
      .post('/api/upload')
      .set('X-Requested-With', 'csv-mapper')
      .field('type', 'data')
      .attach('file', Buffer.from('A\n1\n'), { filename: 'a.csv', contentType: 'text/csv' })
      .attach('file', Buffer.from('A\n1\n'), { filename: 'b.csv', contentType: 'text/csv' })
      .expect(400);
    expect(two.body.code).toBe('INVALID_UPLOAD');
    const wrong = await agent
      .post('/api/upload')
      .set('X-Requested-With', 'csv-mapper')
      .field('type', 'data')
      .attach('upload', Buffer.from('A\n1\n'), { filename: 'a.csv', contentType: 'text/csv' })
      .expect(400);
    expect(wrong.body.error).toMatch(/field named "file"/);
  });

  it('answers 413 FILE_TOO_LARGE with the real size over the free plan limit of 1 MB', async () => {
    const { agent } = await signUp(app);
    const size = Math.round(1.23 * 1024 * 1024);
    const body = Buffer.alloc(size, 'a,b\n');
    const res = await upload(agent, 'data', body, 'big.csv').expect(413);
    expect(res.body).toMatchObject({
      error: 'File size (1.23 MB) exceeds your plan limit of 1 MB',
      code: 'FILE_TOO_LARGE',
    });
  });

  it('lets a pro user upload the same 1.23 MB file', async () => {
    const { agent } = await signUp(app, 'pro');
    const body = Buffer.from(dataRows(40_000));
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const res = await upload(agent, 'data', body, 'big.csv').expect(201);
    expect(res.body.rowCount).toBe(40_000);
    expect(res.body.exceedsRowLimit).toBeUndefined();
  });

  it('accepts a file over the row limit and says so (free: 10,000 rows)', async () => {
    const { agent } = await signUp(app);
    const res = await upload(agent, 'data', dataRows(10_001)).expect(201);
    expect(res.body).toMatchObject({
      exceedsRowLimit: true,
      actualRows: 10_001,
      maxRows: 10_000,
      rowCount: 10_001,
    });
  });

  it("deletes only the owner's file; someone else's id is a 404", async () => {
    const a = await signUp(app);
    const b = await signUp(app);
    const { body } = await upload(a.agent, 'template', 'X,Y\n').expect(201);
    await b.agent.delete(`/api/upload/${body.id}`).set('X-Requested-With', 'csv-mapper').expect(404);
    await a.agent.delete(`/api/upload/${body.id}`).set('X-Requested-With', 'csv-mapper').expect(204);
    await a.agent.delete(`/api/upload/${body.id}`).set('X-Requested-With', 'csv-mapper').expect(404);
  });

  it('offers typed aliases /api/upload/template and /api/upload/data', async () => {
    const { agent } = await signUp(app);
    const t = await agent
      .post('/api/upload/template')
      .set('X-Requested-With', 'csv-mapper')
      .attach('file', Buffer.from('A,B\n'), { filename: 't.csv', contentType: 'text/csv' })
      .expect(201);
    expect(t.body.type).toBe('template');
    const d = await agent
      .post('/api/upload/data')
      .set('X-Requested-With', 'csv-mapper')
      .attach('file', Buffer.from('A,B\n1,2\n'), { filename: 'd.csv', contentType: 'text/csv' })
      .expect(201);
    expect(d.body).toMatchObject({ type: 'data', rowCount: 1 });
  });
});
