import { createHash, createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import IORedis, { type Redis } from 'ioredis';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { s3StoreSettings, startS3TestServer, type S3TestServer } from '../../../scripts/s3-test-server';
import {
  BlobNotFoundError,
  BlobStoreUnsupportedError,
  createBlobStore,
  S3BlobStore,
  type BlobStore,
} from '../src';

// One contract, two drivers: every case runs against the memory (Redis) driver and the s3 driver on a
// real S3-compatible server started here.

let s3: S3TestServer;
let redis: Redis;

beforeAll(async () => {
  s3 = await startS3TestServer();
  redis = new IORedis(process.env.REDIS_URL as string);
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
});

afterAll(async () => {
  redis.disconnect();
  await s3.close();
});

let seq = 0;
function makeStore(driver: 'memory' | 's3', ttlSeconds = 3600): BlobStore {
  const prefix = `${process.env.REDIS_PREFIX}blobs${++seq}:`;
  return createBlobStore(
    driver === 'memory' ? { driver: 'memory' } : s3StoreSettings(s3, `t${seq}/`),
    redis,
    prefix,
    ttlSeconds,
  );
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/** Bytes that differ everywhere (a misplaced chunk shows). */
function bytes(n: number, seed = 1): Buffer {
  const b = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    b[i] = x >> 16;
  }
  return b;
}

describe.each(['memory', 's3'] as const)('BlobStore contract (%s driver)', (driver) => {
  let store: BlobStore;
  beforeEach(() => {
    store = makeStore(driver);
  });

  it('streams a multi-part file in and back out byte for byte, with its meta', async () => {
    const data = bytes(12 * 1024 * 1024 + 7);
    const chunks = Array.from({ length: Math.ceil(data.length / 65536) }, (_, i) =>
      data.subarray(i * 65536, (i + 1) * 65536),
    );
    const meta = await store.put('upload', 'alice', 'big.csv', Readable.from(chunks), { rows: 3 });
    expect(meta).toMatchObject({ kind: 'upload', ownerId: 'alice', filename: 'big.csv', size: data.length });
    const stat = await store.getMeta(meta.id, 'alice');
    expect(stat.info).toEqual({ rows: 3 });
    const { stream } = await store.openRead(meta.id, 'alice');
    const back = await readAll(stream);
    expect(createHash('sha256').update(back).digest('hex')).toBe(
      createHash('sha256').update(data).digest('hex'),
    );
  });

  it('keeps concurrent writers apart (s3: part buffers are pooled and reused between them)', async () => {
    const files = [1, 2, 3].map((seed) => bytes(11 * 1024 * 1024 + seed * 1000, seed));
    const metas = await Promise.all(
      files.map((data, i) => {
        const chunks = Array.from({ length: Math.ceil(data.length / 65536) }, (_, k) =>
          data.subarray(k * 65536, (k + 1) * 65536),
        );
        return store.put('upload', 'alice', `f${i}.csv`, Readable.from(chunks));
      }),
    );
    for (const [i, meta] of metas.entries()) {
      const back = await readAll((await store.openRead(meta.id, 'alice')).stream);
      expect(back.length).toBe(files[i].length);
      expect(back.equals(files[i])).toBe(true);
    }
    // One more, so a writer runs on buffers the earlier ones used.
    const again = await store.put(
      'upload',
      'alice',
      'again.csv',
      Readable.from([files[0].subarray(0, 6 * 1024 * 1024)]),
    );
    const back = await readAll((await store.openRead(again.id, 'alice')).stream);
    expect(back.equals(files[0].subarray(0, 6 * 1024 * 1024))).toBe(true);
  });

  it('keeps an empty file', async () => {
    const meta = await store.put('upload', 'alice', 'empty.csv', Readable.from([]));
    expect(meta.size).toBe(0);
    expect((await readAll((await store.openRead(meta.id, 'alice')).stream)).length).toBe(0);
  });

  it("treats someone else's id exactly like a missing one", async () => {
    const meta = await store.put('upload', 'alice', 'a.csv', Readable.from([Buffer.from('a\n1\n')]));
    await expect(store.getMeta(meta.id, 'bob')).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.openRead(meta.id, 'bob')).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.delete(meta.id, 'bob')).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.getMeta('no-such-id', 'alice')).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.getMeta('../../etc', 'alice')).rejects.toBeInstanceOf(BlobNotFoundError);
    expect((await store.getMeta(meta.id, 'alice')).size).toBe(4);
  });

  it('shows nothing under an id until commit, and an abort leaves the earlier content', async () => {
    const first = await store.put(
      'result',
      'alice',
      'r.csv',
      Readable.from([Buffer.from('v1')]),
      {},
      'res-1',
    );
    const w = store.createWriter('result', 'alice', 'r.csv', 'res-1');
    await w.write(Buffer.from('half of v2'));
    expect((await store.getMeta('res-1', 'alice')).createdAt).toBe(first.createdAt);
    await w.abort();
    expect((await readAll((await store.openRead('res-1', 'alice')).stream)).toString()).toBe('v1');
    // A second run of the same job replaces the content whole.
    await store.put('result', 'alice', 'r.csv', Readable.from([Buffer.from('v2!')]), {}, 'res-1');
    expect((await readAll((await store.openRead('res-1', 'alice')).stream)).toString()).toBe('v2!');
  });

  it('deletes one blob, and every blob of an owner', async () => {
    const a = await store.put('upload', 'alice', 'a.csv', Readable.from([Buffer.from('x')]));
    const b = await store.put('result', 'alice', 'b.csv', Readable.from([Buffer.from('y')]));
    const c = await store.put('upload', 'carol', 'c.csv', Readable.from([Buffer.from('z')]));
    await store.delete(a.id, 'alice');
    await expect(store.getMeta(a.id, 'alice')).rejects.toBeInstanceOf(BlobNotFoundError);
    await store.put('upload', 'alice', 'd.csv', Readable.from([Buffer.from('w')]));
    expect(await store.deleteAllOf('alice')).toBe(2);
    await expect(store.openRead(b.id, 'alice')).rejects.toBeInstanceOf(BlobNotFoundError);
    expect((await store.getMeta(c.id, 'carol')).size).toBe(1);
  });

  it('aborts the write when the source stream fails', async () => {
    async function* failing() {
      yield Buffer.from('a,b\n');
      throw new Error('socket closed');
    }
    await expect(store.put('upload', 'alice', 'x.csv', failing(), {}, 'broken')).rejects.toThrow(
      'socket closed',
    );
    await expect(store.getMeta('broken', 'alice')).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('expires blobs after their TTL', async () => {
    const short = makeStore(driver, 1);
    const meta = await short.put('upload', 'alice', 'a.csv', Readable.from([Buffer.from('x')]));
    await new Promise((r) => setTimeout(r, 2100));
    await expect(short.getMeta(meta.id, 'alice')).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  if (driver === 'memory') {
    it('has no presigned URLs: put is refused with a clear error, get says "serve it yourself"', async () => {
      const meta = await store.put('result', 'alice', 'r.csv', Readable.from([Buffer.from('x')]));
      expect(
        await store.presignGet(meta.id, 'alice', {
          filename: 'r.csv',
          contentType: 'text/csv',
          expiresInSeconds: 60,
        }),
      ).toBeNull();
      await expect(
        store.presignPut('alice', { size: 1, contentType: 'text/csv', expiresInSeconds: 60, info: {} }),
      ).rejects.toThrow(BlobStoreUnsupportedError);
    });
  }
});

describe('s3 driver specifics', () => {
  let store: S3BlobStore;
  beforeEach(() => {
    store = makeStore('s3') as S3BlobStore;
  });

  it('presigns a PUT that signs length, type and encryption, expiring when asked', async () => {
    const p = await store.presignPut('alice', {
      size: 11,
      contentType: 'text/csv',
      expiresInSeconds: 900,
      info: { kind: 'data' },
    });
    const url = new URL(p.url);
    expect(p.method).toBe('PUT');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(
      expect.arrayContaining(['content-length', 'content-type', 'host', 'x-amz-server-side-encryption']),
    );
    expect(p.headers).toEqual({ 'Content-Type': 'text/csv', 'x-amz-server-side-encryption': 'AES256' });
    expect(Date.parse(p.expiresAt) - Date.now()).toBeGreaterThan(890_000);
    // The signature is SigV4 over the canonical request: recompute it from the secret and compare.
    expect(url.searchParams.get('X-Amz-Signature')).toBe(
      sigV4Presigned(
        url,
        'PUT',
        { 'content-length': '11', 'content-type': 'text/csv', 'x-amz-server-side-encryption': 'AES256' },
        'S3RVER',
      ),
    );
    // Another size is another signature: storage refuses a body of any other length.
    const other = await store.presignPut('alice', {
      size: 12,
      contentType: 'text/csv',
      expiresInSeconds: 900,
      info: {},
    });
    const otherUrl = new URL(other.url);
    expect(otherUrl.searchParams.get('X-Amz-Signature')).toBe(
      sigV4Presigned(
        otherUrl,
        'PUT',
        { 'content-length': '12', 'content-type': 'text/csv', 'x-amz-server-side-encryption': 'AES256' },
        'S3RVER',
      ),
    );
    expect(
      sigV4Presigned(
        otherUrl,
        'PUT',
        { 'content-length': '11', 'content-type': 'text/csv', 'x-amz-server-side-encryption': 'AES256' },
        'S3RVER',
      ),
    ).not.toBe(otherUrl.searchParams.get('X-Amz-Signature'));
  });

  it('takes a presigned PUT, checks its owner, and adopts it as a blob under the same id', async () => {
    const body = 'name,amount\nA,1\n';
    const p = await store.presignPut('alice', {
      size: body.length,
      contentType: 'text/csv',
      expiresInSeconds: 60,
      info: { kind: 'data', fileName: 'a.csv' },
    });
    const before = await store.openPending(p.uploadId, 'alice');
    expect(before.size).toBeNull();
    const res = await fetch(p.url, { method: 'PUT', headers: p.headers, body });
    expect(res.status).toBe(200);
    await expect(store.openPending(p.uploadId, 'bob')).rejects.toBeInstanceOf(BlobNotFoundError);
    const pending = await store.openPending(p.uploadId, 'alice');
    expect(pending.size).toBe(body.length);
    expect(pending.pending.info).toEqual({ kind: 'data', fileName: 'a.csv' });
    expect((await readAll(await pending.open())).toString()).toBe(body);
    const meta = await store.adoptPending(p.uploadId, 'alice', 'upload', 'a.csv', { rowCount: 1 });
    expect(meta).toMatchObject({ id: p.uploadId, size: body.length, filename: 'a.csv' });
    expect((await readAll((await store.openRead(p.uploadId, 'alice')).stream)).toString()).toBe(body);
    // Completed once: the pending promise is gone.
    await expect(store.openPending(p.uploadId, 'alice')).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('presigns a GET that downloads the blob with its file name', async () => {
    const meta = await store.put('result', 'alice', 'out.csv', Readable.from([Buffer.from('a\n1\n')]));
    const url = await store.presignGet(meta.id, 'alice', {
      filename: 'out.csv',
      contentType: 'text/csv; charset=utf-8',
      expiresInSeconds: 300,
    });
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('300');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('a\n1\n');
    await expect(
      store.presignGet(meta.id, 'bob', { filename: 'x', contentType: 'text/csv', expiresInSeconds: 300 }),
    ).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it("the cleanup deletes objects past their life (uploads, results, a dead writer's parts)", async () => {
    const meta = await store.put('upload', 'alice', 'a.csv', Readable.from([Buffer.from('x')]));
    const w = store.createWriter('result', 'alice', 'r.csv');
    await w.write(Buffer.from('never committed'));
    const list = async () =>
      (await store.client.send(new ListObjectsV2Command({ Bucket: store.bucket, Prefix: `t${seq}/` })))
        .Contents?.length ?? 0;
    expect(await list()).toBe(1);
    expect(await store.removeExpired(new Date())).toBe(0);
    const later = new Date(Date.now() + 3 * 3600_000);
    expect(await store.removeExpired(later)).toBe(2);
    expect(await list()).toBe(0);
    await w.abort();
    void meta;
  });
});

/** AWS Signature V4 for a presigned URL, computed here from the secret (independent of the SDK). */
function sigV4Presigned(url: URL, method: string, headers: Record<string, string>, secret: string): string {
  const q = new URLSearchParams(url.search);
  q.delete('X-Amz-Signature');
  const enc = (s: string) =>
    encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const query = [...q.entries()]
    .map(([k, v]) => [enc(k), enc(v)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const all: Record<string, string> = { host: url.host, ...headers };
  const signed = (q.get('X-Amz-SignedHeaders') ?? '').split(';');
  const canonicalHeaders = signed.map((h) => `${h}:${all[h].trim()}\n`).join('');
  const canonical = [
    method,
    url.pathname,
    query,
    canonicalHeaders,
    signed.join(';'),
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const date = q.get('X-Amz-Date') as string;
  const scope = (q.get('X-Amz-Credential') as string).split('/').slice(1).join('/');
  const toSign = ['AWS4-HMAC-SHA256', date, scope, createHash('sha256').update(canonical).digest('hex')].join(
    '\n',
  );
  const [day, region, service] = scope.split('/');
  const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex');
}
