import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import IORedis from 'ioredis';
import { startS3TestServer, type S3TestServer } from '../../../scripts/s3-test-server';
import { H, processInBackground, signUp, startApp, type Agent } from './support/api-test-app';
import { closeAll, startAppAndWorker } from './support/app-and-worker';
import { KUNDEN_MAPPINGS, KUNDEN_TEMPLATE, kundenCsv } from './support/kunden';

// The whole file flow (upload → process now and as a job → download) with each BlobStore driver, and the
// Enterprise presigned upload (PUT straight to storage, then complete) against a real S3-compatible server.

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3TestServer();
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: s3.env.AWS_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY: s3.env.AWS_SECRET_ACCESS_KEY,
  });
});
afterAll(async () => {
  await s3?.close();
});

const mappings = KUNDEN_MAPPINGS;

async function objectCount(): Promise<number> {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const res = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
  client.destroy();
  return res.KeyCount ?? 0;
}

describe.each(['memory', 's3'] as const)('files through the %s driver', (driver) => {
  let app: INestApplication;
  let worker: INestApplicationContext;
  const env = (): Record<string, string> =>
    driver === 's3' ? { ...s3.env, S3_KEY_PREFIX: `flow-${driver}/` } : { BLOB_STORE: 'memory' };

  beforeAll(
    async () => ({ app, worker } = await startAppAndWorker({ SYNC_ROW_LIMIT: '50', ...env() }, env())),
  );
  afterAll(() => closeAll(worker, app));

  function upload(agent: Agent, type: string, name: string, body: string) {
    return agent.post('/api/upload').set(H).field('type', type).attach('file', Buffer.from(body), name);
  }

  it('uploads, maps at once and as a job, and downloads the same bytes', async () => {
    const { agent } = await signUp(app, 'business');
    const before = driver === 's3' ? await objectCount() : 0;
    const t = await upload(agent, 'template', 't.csv', KUNDEN_TEMPLATE).expect(201);
    const d = await upload(agent, 'data', 'kunden.csv', kundenCsv(20)).expect(201);
    expect(d.body).toMatchObject({ rowCount: 20, headers: ['Kunde', 'Betrag'], delimiter: ';' });
    // With s3 the bytes are objects in the bucket (not in Redis).
    if (driver === 's3') expect(await objectCount()).toBe(before + 2);
    const body = { templateFileId: t.body.id, dataFileId: d.body.id, mappings };

    const now = await agent.post('/api/process').set(H).send(body).expect(200);
    expect(now.body.rowsProcessed).toBe(20);
    expect(now.body.csvData.split(/\r?\n/).slice(0, 2)).toEqual(['Name,Amount', 'Kunde 1,1.50']);

    const view = await processInBackground(agent, { ...body, async: true });
    expect(view.state).toBe('completed');
    const res = await agent.get(view.resultUrl as string);
    let downloaded: string;
    if (driver === 's3') {
      // Object storage serves the result: a short-lived signed URL the client follows.
      expect(res.status).toBe(302);
      expect(res.headers['cache-control']).toBe('no-store');
      const signed = new URL(res.headers.location as string);
      expect(signed.origin).toBe(s3.endpoint);
      expect(signed.searchParams.get('X-Amz-Expires')).toBe('300');
      const file = await fetch(signed);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-disposition')).toBe('attachment; filename="mapped_kunden.csv"');
      downloaded = await file.text();
    } else {
      expect(res.status).toBe(200);
      expect(res.headers['content-disposition']).toBe('attachment; filename="mapped_kunden.csv"');
      downloaded = res.text;
    }
    expect(downloaded).toBe(now.body.csvData);
  });

  it('takes a file of several 5 MiB parts and a job writes a result of several parts, byte for byte', async () => {
    const { agent } = await signUp(app, 'business');
    const rows = 600_000; // ~13 MB in and out: three 5 MiB multipart parts each way with s3
    const t = await upload(agent, 'template', 't.csv', KUNDEN_TEMPLATE).expect(201);
    const d = await upload(agent, 'data', 'big.csv', kundenCsv(rows)).expect(201);
    expect(d.body.rowCount).toBe(rows);
    const view = await processInBackground(agent, {
      templateFileId: t.body.id,
      dataFileId: d.body.id,
      mappings,
      async: true,
    });
    expect(view.state).toBe('completed');
    const res = await agent.get(view.resultUrl as string);
    const downloaded =
      driver === 's3' ? await (await fetch(res.headers.location as string)).text() : (res.text as string);
    let expected = KUNDEN_TEMPLATE;
    for (let i = 1; i <= rows; i++) expected += `Kunde ${i},${i}.50\n`;
    expect(downloaded.length).toBe(expected.length);
    expect(downloaded === expected).toBe(true);
  });

  it('refuses presigned uploads outside Enterprise with the upgrade message', async () => {
    const { agent } = await signUp(app, 'business');
    const res = await agent
      .post('/api/upload/presign')
      .set(H)
      .send({ kind: 'data', fileName: 'a.csv', size: 10 })
      .expect(403);
    expect(res.body).toMatchObject({ code: 'PLAN_FEATURE_UNAVAILABLE' });
    expect(res.body.error).toContain('Enterprise plan');
  });

  if (driver === 'memory') {
    it('answers a clear 409 for presigned uploads when files are kept in memory', async () => {
      const { agent } = await signUp(app, 'enterprise');
      const res = await agent
        .post('/api/upload/presign')
        .set(H)
        .send({ kind: 'data', fileName: 'a.csv', size: 10 })
        .expect(409);
      expect(res.body.code).toBe('DIRECT_UPLOAD_UNAVAILABLE');
      expect(res.body.error).toContain('BLOB_STORE=s3');
    });
  }

  if (driver === 's3') {
    it('takes an Enterprise file PUT straight to storage and answers complete like a normal upload', async () => {
      const { agent } = await signUp(app, 'enterprise');
      const csv = kundenCsv(30);
      const p = await agent
        .post('/api/upload/presign')
        .set(H)
        .send({ kind: 'data', fileName: 'kunden.csv', size: Buffer.byteLength(csv) })
        .expect(201);
      expect(p.body).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'text/csv' } });
      expect(new URL(p.body.url).origin).toBe(s3.endpoint);
      // Not arrived yet: a clear 409, and someone else's id is a 404.
      const early = await agent.post(`/api/upload/${p.body.uploadId}/complete`).set(H).expect(409);
      expect(early.body.code).toBe('UPLOAD_NOT_RECEIVED');
      const other = await signUp(app, 'enterprise');
      await other.agent.post(`/api/upload/${p.body.uploadId}/complete`).set(H).expect(404);

      const put = await fetch(p.body.url, { method: 'PUT', headers: p.body.headers, body: csv });
      expect(put.status).toBe(200);
      const done = await agent.post(`/api/upload/${p.body.uploadId}/complete`).set(H).expect(201);
      const normal = await upload(agent, 'data', 'kunden.csv', csv).expect(201);
      const strip = (r: Record<string, unknown>) => ({ ...r, id: undefined, uploadedAt: undefined });
      expect(strip(done.body)).toEqual(strip(normal.body));
      expect(done.body.id).toBe(p.body.uploadId);
      // Completed once; the file is an upload like any other.
      await agent.post(`/api/upload/${p.body.uploadId}/complete`).set(H).expect(404);
      const t = await upload(agent, 'template', 't.csv', KUNDEN_TEMPLATE).expect(201);
      const mapped = await agent
        .post('/api/process')
        .set(H)
        .send({ templateFileId: t.body.id, dataFileId: done.body.id, mappings })
        .expect(200);
      expect(mapped.body.rowsProcessed).toBe(30);
    });

    it('refuses a stored object whose size differs from the one announced, or that is not CSV', async () => {
      const { agent } = await signUp(app, 'enterprise');
      const p = await agent
        .post('/api/upload/presign')
        .set(H)
        .send({ kind: 'data', fileName: 'x.csv', size: 100 })
        .expect(201);
      // Storage refuses a body of another length than the one signed (the test server verifies SigV4)…
      const refused = await fetch(p.body.url, { method: 'PUT', headers: p.body.headers, body: 'a,b\n1,2\n' });
      expect(refused.status).toBe(403);
      await agent.post(`/api/upload/${p.body.uploadId}/complete`).set(H).expect(409);
      // …and complete checks the size again, for a store that would not: the same PUT to s3rver unverified.
      const lax = p.body.url.replace(s3.endpoint, s3.unverifiedEndpoint);
      await fetch(lax, { method: 'PUT', headers: p.body.headers, body: 'a,b\n1,2\n' });
      const res = await agent.post(`/api/upload/${p.body.uploadId}/complete`).set(H).expect(400);
      expect(res.body.code).toBe('UPLOAD_SIZE_MISMATCH');
      await agent.post(`/api/upload/${p.body.uploadId}/complete`).set(H).expect(404);

      const bin = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xfe, 0, 0]);
      const q = await agent
        .post('/api/upload/presign')
        .set(H)
        .send({ kind: 'data', fileName: 'y.csv', size: bin.length })
        .expect(201);
      await fetch(q.body.url, { method: 'PUT', headers: q.body.headers, body: bin });
      const bad = await agent.post(`/api/upload/${q.body.uploadId}/complete`).set(H);
      expect(bad.status).toBeGreaterThanOrEqual(400);
      expect(bad.status).toBeLessThan(500);

      const named = await agent
        .post('/api/upload/presign')
        .set(H)
        .send({ kind: 'data', fileName: 'report.pdf', size: 10 })
        .expect(415);
      expect(named.body.code).toBe('UNSUPPORTED_FILE_TYPE');
      await agent
        .post('/api/upload/presign')
        .set(H)
        .send({ kind: 'data', fileName: 'a.csv', size: 0 })
        .expect(400);
    });
  }
});

describe('Redis holds no file bytes with the s3 driver', () => {
  it('keeps only small meta records for an uploaded file', async () => {
    const app = await startApp({ ...s3.env, S3_KEY_PREFIX: 'redis-check/' });
    const redis = new IORedis(process.env.REDIS_URL as string);
    try {
      const { agent } = await signUp(app, 'business');
      const big = kundenCsv(40_000);
      const d = await agent
        .post('/api/upload')
        .set(H)
        .field('type', 'data')
        .attach('file', Buffer.from(big), 'big.csv')
        .expect(201);
      const keys = await redis.keys(`${process.env.REDIS_PREFIX}*${d.body.id}*`);
      expect(keys.length).toBeGreaterThan(0);
      let bytes = 0;
      for (const k of keys) bytes += Number(await redis.memory('USAGE', k));
      expect(big.length).toBeGreaterThan(500_000);
      expect(bytes).toBeLessThan(4096);
    } finally {
      redis.disconnect();
      await app.close();
    }
  });
});
