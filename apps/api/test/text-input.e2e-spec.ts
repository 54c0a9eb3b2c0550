import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { H, signUp, startApp } from './support/api-test-app';

// What the api accepts as text (issue 18): a NUL character anywhere a client sends text is a 400
// INVALID_CHARACTERS on every route (it used to reach Postgres and fail as a 500), and an upload's answer
// says which encoding the file was read in and why.

const NUL = 'a\u0000b';
const INVALID = {
  error: 'Text fields cannot contain the NUL character (\\u0000). Remove it and send the request again.',
  code: 'INVALID_CHARACTERS',
};

describe('text input (e2e)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app.close());

  it('answers 400 INVALID_CHARACTERS for a NUL in any JSON string, key, query or path, signed in or not', async () => {
    const server = app.getHttpServer();
    const { agent } = await signUp(app);
    const anonymous: [string, unknown][] = [
      [
        '/api/register',
        { username: NUL, email: 'x@example.com', password: 'Tr1cky-Mapper!', firstName: 'A', lastName: 'B' },
      ],
      ['/api/login', { username: NUL, password: 'x' }],
      ['/api/request-password-reset', { email: `${NUL}@example.com` }],
      ['/api/reset-password', { token: NUL, password: 'Tr1cky-Mapper!' }],
    ];
    for (const [path, body] of anonymous) {
      const res = await request(server)
        .post(path)
        .set(H)
        .send(body as object);
      expect([path, res.status, res.body]).toEqual([path, 400, INVALID]);
    }
    const signedIn: [string, string, unknown][] = [
      ['post', '/api/mappings', { name: NUL, templateHeaders: ['A'], mappings: [] }],
      ['post', '/api/mappings/match', { templateHeaders: ['A'], dataHeaders: [NUL] }],
      ['post', '/api/webhooks', { url: `https://example.com/${NUL}`, events: ['job.completed'] }],
      ['post', '/api/api-keys', { name: NUL }],
      [
        'post',
        '/api/process',
        { templateId: 'x', dataId: 'y', mappings: [], nested: { deep: [[{ [NUL]: 1 }]] } },
      ],
    ];
    for (const [method, path, body] of signedIn) {
      const res = await (agent as unknown as Record<string, (p: string) => request.Test>)
        [method](path)
        .set(H)
        .send(body as object);
      expect([path, res.status, res.body]).toEqual([path, 400, INVALID]);
    }
    // Query values and path parameters decode %00 to NUL.
    for (const path of ['/api/jobs?status=%00', '/api/mappings/%00', '/api/jobs/abc%00def']) {
      const res = await agent.get(path);
      expect([path, res.status, res.body]).toEqual([path, 400, INVALID]);
    }
    // A form-encoded body is checked too.
    const form = await request(server)
      .post('/api/login')
      .set(H)
      .type('form')
      .send('username=a%00b&password=x');
    expect([form.status, form.body]).toEqual([400, INVALID]);
  });

  it('answers 400 INVALID_CHARACTERS for a NUL in an uploaded file name (it reaches Postgres with the job)', async () => {
    const { agent } = await signUp(app);
    // A raw NUL in a part header is already malformed; the RFC 5987 form decodes to one.
    const body =
      '--b0\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8\'\'da%00ta.csv\r\n' +
      'Content-Type: text/csv\r\n\r\nA,B\n1,2\n\r\n--b0--\r\n';
    const res = await agent
      .post('/api/upload/data')
      .set(H)
      .set('Content-Type', 'multipart/form-data; boundary=b0')
      .send(body);
    expect([res.status, res.body]).toEqual([400, INVALID]);
  });

  it('says in the upload answer which encoding was assumed and why', async () => {
    const { agent } = await signUp(app);
    const upload = (bytes: Buffer) =>
      agent
        .post('/api/upload/data')
        .set(H)
        .attach('file', bytes, { filename: 'people.csv', contentType: 'text/csv' })
        .expect(201);
    // Saved by Excel on Windows: "Köln" with ö as the single byte 0xF6, which is not UTF-8.
    const legacy = await upload(Buffer.from('Name,City\nAnna,K\xf6ln\n', 'latin1'));
    expect(legacy.body).toMatchObject({
      encoding: 'windows-1252',
      encodingReason: 'Read as Windows-1252 because the file is not valid UTF-8.',
      data: [['Anna', 'Köln']],
    });
    const utf8 = await upload(Buffer.from('Name,City\nAnna,Köln\n'));
    expect(utf8.body).toMatchObject({
      encoding: 'utf-8',
      encodingReason: 'Read as UTF-8: the file is valid UTF-8.',
    });
  });
});
