import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import {
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { SignatureV4 } from '@smithy/signature-v4';
import IORedis, { type Redis } from 'ioredis';
import { createBlobStore, S3BlobStore } from '@csv-mapper/queue';
import { NodeSha256 } from '../../../scripts/s3-sigv4-verifier';
import { s3StoreSettings, startS3TestServer, type S3TestServer } from '../../../scripts/s3-test-server';
import { H, signUp, startApp } from './support/api-test-app';
import { KUNDEN_MAPPINGS, KUNDEN_TEMPLATE } from './support/kunden';
import { uploadFile } from './support/uploads';

// Issue 28 finding 8: the test S3 server verifies AWS Signature V4 as S3 does (scripts/s3-sigv4-verifier.js
// in front of s3rver). What a correct client sends is taken; a wrong secret, an expired or tampered
// presigned URL, a PUT of another length or without the signed encryption header is refused with S3's
// answers — at the SDK, at the blob store, and through the product's direct upload (HTTP in, bytes out).

let s3: S3TestServer;
let redis: Redis;
beforeAll(async () => {
  s3 = await startS3TestServer();
  redis = new IORedis(process.env.REDIS_URL as string);
  // The blob store and the api take credentials from the SDK's usual chain.
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: s3.env.AWS_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY: s3.env.AWS_SECRET_ACCESS_KEY,
  });
});
afterAll(async () => {
  redis?.disconnect();
  await s3?.close();
});

/** A client configured as the product's (createS3Client), with the given credentials. */
function client(secretAccessKey = 'S3RVER', extra: Partial<S3ClientConfig> = {}): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1,
    ...extra,
  });
}

async function exists(key: string): Promise<boolean> {
  const c = client();
  try {
    await c.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
    return true;
  } catch (err) {
    if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw err;
  } finally {
    c.destroy();
  }
}

async function getText(key: string): Promise<string> {
  const c = client();
  try {
    const res = await c.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
    return await (res.Body as { transformToString(): Promise<string> }).transformToString();
  } finally {
    c.destroy();
  }
}

/** The code and message of an S3 XML error body. */
function s3Error(xml: string): { code?: string; message?: string } {
  return {
    code: /<Code>([^<]*)<\/Code>/.exec(xml)?.[1],
    message: /<Message>([^<]*)<\/Message>/.exec(xml)?.[1],
  };
}

function key(name: string): string {
  return `sig/${randomBytes(6).toString('hex')}/${name}`;
}

describe('the test S3 server verifies SigV4', () => {
  it('takes what the SDK sends correctly: PUT, GET, HEAD, list, batch delete, multipart', async () => {
    const before = s3.refusals.length;
    const c = client();
    const k = key('a b+c (1).csv'); // characters the canonical URI must encode
    await c.send(
      new PutObjectCommand({
        Bucket: s3.bucket,
        Key: k,
        Body: Buffer.from('name,amount\nA,1\n'),
        ContentType: 'text/csv',
        ServerSideEncryption: 'AES256',
      }),
    );
    expect(await getText(k)).toBe('name,amount\nA,1\n');
    // The blob store's own multipart writer (12 MiB: three parts) and its batch delete.
    const store = createBlobStore(
      s3StoreSettings(s3, key('store/')),
      redis,
      `${process.env.REDIS_PREFIX}sig:`,
      3600,
    ) as S3BlobStore;
    const data = randomBytes(12 * 1024 * 1024 + 5);
    const meta = await store.put('upload', 'alice', 'big.csv', Readable.from([data]));
    const { stream } = await store.openRead(meta.id, 'alice');
    const parts: Buffer[] = [];
    for await (const chunk of stream) parts.push(chunk as Buffer);
    expect(Buffer.concat(parts).equals(data)).toBe(true);
    const small = await store.put('result', 'alice', 'r.csv', Readable.from([Buffer.from('x')]));
    expect(await store.deleteAllOf('alice')).toBe(2);
    await expect(store.openRead(small.id, 'alice')).rejects.toThrow();
    c.destroy();
    expect(s3.refusals.slice(before)).toEqual([]);
  });

  it("takes the SDK's default checksums too (a streamed body goes aws-chunked with a CRC32 trailer)", async () => {
    const c = client('S3RVER', {
      requestChecksumCalculation: 'WHEN_SUPPORTED',
      responseChecksumValidation: 'WHEN_SUPPORTED',
    });
    const k = key('chunked.csv');
    const body = Buffer.from('a,b\n'.repeat(50_000));
    await c.send(
      new PutObjectCommand({
        Bucket: s3.bucket,
        Key: k,
        Body: Readable.from([body.subarray(0, 70_000), body.subarray(70_000)]),
        ContentLength: body.length,
      }),
    );
    c.destroy();
    // The framing was removed: the object is the bytes sent.
    expect(await getText(k)).toBe(body.toString());
  });

  it('refuses a wrong secret with 403 SignatureDoesNotMatch and stores nothing', async () => {
    const c = client('not-the-secret');
    const k = key('wrong.csv');
    const err = await c
      .send(new PutObjectCommand({ Bucket: s3.bucket, Key: k, Body: Buffer.from('x') }))
      .then(
        () => null,
        (e: unknown) => e as { name: string; $metadata: { httpStatusCode: number }; message: string },
      );
    c.destroy();
    expect(err?.name).toBe('SignatureDoesNotMatch');
    expect(err?.$metadata.httpStatusCode).toBe(403);
    expect(await exists(k)).toBe(false);
  });

  it('refuses an unknown access key with 403 InvalidAccessKeyId', async () => {
    const c = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'SOMEONE-ELSE', secretAccessKey: 'S3RVER' },
      maxAttempts: 1,
    });
    await expect(c.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: 'x' }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 403 },
    });
    c.destroy();
    expect(s3.refusals.at(-1)).toMatchObject({ code: 'InvalidAccessKeyId' });
  });

  /** Signs a request with the SDK's signer (as a client would) for sending by hand. */
  async function signByHand(
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<Record<string, string>> {
    const signer = new SignatureV4({
      service: 's3',
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      sha256: NodeSha256,
      uriEscapePath: false,
    });
    const url = new URL(s3.endpoint);
    const signed = await signer.sign({
      method: 'PUT',
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path,
      query: {},
      headers: { host: url.host, ...headers },
      body,
    });
    return signed.headers as Record<string, string>;
  }

  function sendByHand(
    path: string,
    headers: Record<string, string>,
    body: string,
  ): Promise<{ status: number; body: string }> {
    const url = new URL(s3.endpoint);
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, method: 'PUT', path, headers }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('refuses a body other than the one whose SHA-256 was signed, and an x-amz-* header added after signing', async () => {
    const k = key('hashed.csv');
    const path = `/${s3.bucket}/${k}`;
    const headers = await signByHand(path, { 'content-length': '3' }, 'abc');
    expect(headers['x-amz-content-sha256']).toMatch(/^[0-9a-f]{64}$/);
    const tampered = await sendByHand(path, headers, 'abd');
    expect(tampered.status).toBe(400);
    expect(s3Error(tampered.body).code).toBe('XAmzContentSHA256Mismatch');
    const extra = await sendByHand(path, { ...headers, 'x-amz-meta-owner': 'mallory' }, 'abc');
    expect(extra.status).toBe(403);
    expect(s3Error(extra.body)).toEqual({
      code: 'AccessDenied',
      message: 'There were headers present in the request which were not signed',
    });
    expect(await exists(k)).toBe(false);
    // The same signed request, as signed: taken.
    expect((await sendByHand(path, headers, 'abc')).status).toBe(200);
    expect(await getText(k)).toBe('abc');
  });

  it('checks the trailing checksum of an aws-chunked body before anything is stored', async () => {
    const k = key('trailer.csv');
    const path = `/${s3.bucket}/${k}`;
    const framed = (crc: string) => `5\r\nhello\r\n0\r\nx-amz-checksum-crc32:${crc}\r\n\r\n`;
    const good = Buffer.alloc(4);
    good.writeUInt32BE(crc32('hello'));
    const send = async (crc: string) => {
      const body = framed(crc);
      const headers = await signByHand(path, {
        'content-encoding': 'aws-chunked',
        'content-length': String(body.length),
        'x-amz-content-sha256': 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
        'x-amz-decoded-content-length': '5',
        'x-amz-trailer': 'x-amz-checksum-crc32',
      });
      return sendByHand(path, headers, body);
    };
    const bad = await send('AAAAAA==');
    expect(bad.status).toBe(400);
    expect(s3Error(bad.body).code).toBe('BadDigest');
    expect(await exists(k)).toBe(false);
    expect((await send(good.toString('base64'))).status).toBe(200);
    expect(await getText(k)).toBe('hello');
  });

  it('refuses an expired presigned URL with 403 AccessDenied "Request has expired"', async () => {
    const k = key('old.csv');
    const c = client();
    await c.send(new PutObjectCommand({ Bucket: s3.bucket, Key: k, Body: Buffer.from('old') }));
    const fresh = await getSignedUrl(c, new GetObjectCommand({ Bucket: s3.bucket, Key: k }), {
      expiresIn: 60,
    });
    // Signed two hours ago for one minute.
    const stale = await getSignedUrl(c, new GetObjectCommand({ Bucket: s3.bucket, Key: k }), {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 2 * 3600_000),
    });
    c.destroy();
    expect(await (await fetch(fresh)).text()).toBe('old');
    const res = await fetch(stale);
    expect(res.status).toBe(403);
    expect(s3Error(await res.text())).toEqual({ code: 'AccessDenied', message: 'Request has expired' });
  });

  describe("the blob store's presigned PUT (length, type and encryption signed)", () => {
    let store: S3BlobStore;
    beforeAll(() => {
      store = createBlobStore(
        s3StoreSettings(s3, key('presigned/')),
        redis,
        `${process.env.REDIS_PREFIX}sigp:`,
        3600,
      ) as S3BlobStore;
    });
    const body = 'name,amount\nA,1\n';
    const presign = (expiresInSeconds = 60) =>
      store.presignPut('alice', { size: body.length, contentType: 'text/csv', expiresInSeconds, info: {} });

    it('takes the PUT sent as told', async () => {
      const p = await presign();
      const res = await fetch(p.url, { method: 'PUT', headers: p.headers, body });
      expect(res.status).toBe(200);
      expect((await store.openPending(p.uploadId, 'alice')).size).toBe(body.length);
    });

    it('refuses a different Content-Length', async () => {
      const p = await presign();
      for (const other of [body + 'x', body.slice(1)]) {
        const res = await fetch(p.url, { method: 'PUT', headers: p.headers, body: other });
        expect(res.status).toBe(403);
        expect(s3Error(await res.text()).code).toBe('SignatureDoesNotMatch');
      }
      expect((await store.openPending(p.uploadId, 'alice')).size).toBeNull();
    });

    it('refuses a PUT without the signed encryption header, or with another type', async () => {
      const p = await presign();
      const noSse = await fetch(p.url, { method: 'PUT', headers: { 'Content-Type': 'text/csv' }, body });
      expect(noSse.status).toBe(403);
      expect(s3Error(await noSse.text()).code).toBe('SignatureDoesNotMatch');
      const otherType = await fetch(p.url, {
        method: 'PUT',
        headers: { ...p.headers, 'Content-Type': 'application/octet-stream' },
        body,
      });
      expect(otherType.status).toBe(403);
      expect((await store.openPending(p.uploadId, 'alice')).size).toBeNull();
    });

    it('refuses it once expired', async () => {
      const p = await presign(1);
      await new Promise((r) => setTimeout(r, 2100));
      const res = await fetch(p.url, { method: 'PUT', headers: p.headers, body });
      expect(res.status).toBe(403);
      expect(s3Error(await res.text())).toEqual({ code: 'AccessDenied', message: 'Request has expired' });
      expect((await store.openPending(p.uploadId, 'alice')).size).toBeNull();
    });
  });
});

describe('the direct (presigned) upload through the product, against the verifying server', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp({ ...s3.env, S3_KEY_PREFIX: 'sig-flow/' });
  });
  afterAll(async () => {
    await app?.close();
  });

  const csv = 'Kunde;Betrag\nKunde 1;1,50\nKunde 2;2,50\n';
  const presign = (agent: Awaited<ReturnType<typeof signUp>>['agent']) =>
    agent
      .post('/api/upload/presign')
      .set(H)
      .send({ kind: 'data', fileName: 'kunden.csv', size: Buffer.byteLength(csv) })
      .expect(201);

  it('presign → PUT as told → complete succeeds, and the bytes are the upload', async () => {
    const { agent } = await signUp(app, 'enterprise');
    const p = await presign(agent);
    expect(new URL(p.body.url).origin).toBe(s3.endpoint);
    const put = await fetch(p.body.url, { method: 'PUT', headers: p.body.headers, body: csv });
    expect(put.status).toBe(200);
    const done = await agent.post(`/api/upload/${p.body.uploadId}/complete`).set(H).expect(201);
    expect(done.body).toMatchObject({ id: p.body.uploadId, rowCount: 2, headers: ['Kunde', 'Betrag'] });
    const t = await uploadFile(agent, 'template', KUNDEN_TEMPLATE, 't.csv').expect(201);
    const mapped = await agent
      .post('/api/process')
      .set(H)
      .send({ templateFileId: t.body.id, dataFileId: done.body.id, mappings: KUNDEN_MAPPINGS })
      .expect(200);
    expect(mapped.body.csvData.split(/\r?\n/).slice(0, 3)).toEqual([
      'Name,Amount',
      'Kunde 1,1.50',
      'Kunde 2,2.50',
    ]);
  });

  it('a tampered URL, another length or a missing encryption header is refused and nothing arrives', async () => {
    const { agent } = await signUp(app, 'enterprise');
    const p = await presign(agent);
    const url = new URL(p.body.url);
    const longer = new URL(url);
    longer.searchParams.set('X-Amz-Expires', '604800');
    const elsewhere = new URL(url);
    elsewhere.pathname = url.pathname.replace(/[^/]+$/, 'someone-elses-upload');
    const attempts: Array<[string, RequestInit]> = [
      [longer.href, { method: 'PUT', headers: p.body.headers, body: csv }],
      [elsewhere.href, { method: 'PUT', headers: p.body.headers, body: csv }],
      [url.href, { method: 'PUT', headers: p.body.headers, body: csv + 'Kunde 3;3,50\n' }],
      [url.href, { method: 'PUT', headers: { 'Content-Type': 'text/csv' }, body: csv }],
    ];
    for (const [href, init] of attempts) {
      const res = await fetch(href, init);
      expect(res.status).toBe(403);
      expect(s3Error(await res.text()).code).toBe('SignatureDoesNotMatch');
    }
    const early = await agent.post(`/api/upload/${p.body.uploadId}/complete`).set(H).expect(409);
    expect(early.body.code).toBe('UPLOAD_NOT_RECEIVED');
    // The URL as handed out still works.
    expect((await fetch(url.href, { method: 'PUT', headers: p.body.headers, body: csv })).status).toBe(200);
    await agent.post(`/api/upload/${p.body.uploadId}/complete`).set(H).expect(201);
  });
});
