// `npm run bench:upload` (never part of npm test): where an upload's time goes. The same 1M-row file
// (~124 MB) goes through each stage of POST /api/upload alone, in this process: reading the bytes,
// multipart parsing (busboy, what multer uses), the engine's inspector, the store writes of each driver
// (memory = Redis, s3 = an in-process S3 server), and then all of them chained as the api does it.
import { createReadStream, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import IORedis from 'ioredis';
import { CsvInspector } from '@csv-mapper/csv-engine';
import { createBlobStore, type BlobStore } from '@csv-mapper/queue';
import { s3StoreSettings, startS3TestServer } from '../scripts/s3-test-server';
import { generate } from './engine/generate';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const busboy = require('busboy') as (opts: { headers: Record<string, string> }) => NodeJS.WritableStream & {
  on(event: 'file', cb: (name: string, file: Readable) => void): void;
  on(event: 'close' | 'finish', cb: () => void): void;
};

const BOUNDARY = '----csvmbench7d1f';

/** The file wrapped in a multipart/form-data body, streamed (never whole in memory). */
function multipart(file: string): Readable {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="type"\r\n\r\ndata\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  async function* body() {
    yield head;
    yield* createReadStream(file, { highWaterMark: 64 * 1024 });
    yield tail;
  }
  return Readable.from(body());
}

/** Streams the multipart body through busboy and hands each file chunk to `onChunk`. */
function parse(file: string, onChunk: (c: Buffer) => Promise<void> | void): Promise<void> {
  return new Promise((resolve, reject) => {
    const bb = busboy({ headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } });
    bb.on('file', (_name, stream) => {
      void (async () => {
        for await (const c of stream) await onChunk(c as Buffer);
      })().catch(reject);
    });
    bb.on('close', resolve);
    const src = multipart(file);
    src.on('error', reject);
    src.pipe(bb as unknown as PassThrough);
  });
}

async function time(label: string, fn: () => Promise<unknown>, bytes: number): Promise<void> {
  const t0 = performance.now();
  await fn();
  const s = (performance.now() - t0) / 1000;
  console.log(
    `${label.padEnd(44)} ${s.toFixed(2).padStart(6)} s  ${(bytes / 1e6 / s).toFixed(0).padStart(5)} MB/s`,
  );
}

async function main(): Promise<void> {
  const file = join(tmpdir(), `csvm-upload-bench-${process.pid}.csv`);
  const s3 = await startS3TestServer();
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: s3.env.AWS_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY: s3.env.AWS_SECRET_ACCESS_KEY,
  });
  const redis = new IORedis(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  const prefix = `csvm-upload-bench-${process.pid}:`;
  const stores: Record<string, BlobStore> = {
    memory: createBlobStore({ driver: 'memory' }, redis, prefix, 600),
    s3: createBlobStore(s3StoreSettings(s3, 'bench/'), redis, prefix, 600),
  };
  try {
    await generate(file, 1_000_000);
    const bytes = statSync(file).size;
    console.log(`1,000,000 rows, ${(bytes / 1e6).toFixed(1)} MB\n`);
    await time(
      'read the file',
      async () => {
        for await (const c of createReadStream(file, { highWaterMark: 64 * 1024 })) void c;
      },
      bytes,
    );
    await time('multipart parsing (busboy)', () => parse(file, () => undefined), bytes);
    await time(
      'inspection (CsvInspector)',
      async () => {
        const ins = new CsvInspector({ sampleRows: 5 });
        for await (const c of createReadStream(file, { highWaterMark: 64 * 1024 })) ins.push(c as Buffer);
        ins.end();
      },
      bytes,
    );
    for (const [name, store] of Object.entries(stores)) {
      await time(
        `store writes (${name})`,
        async () => {
          const w = store.createWriter('upload', 'bench', 'big.csv');
          for await (const c of createReadStream(file, { highWaterMark: 64 * 1024 }))
            await w.write(c as Buffer);
          const meta = await w.commit({});
          await store.delete(meta.id, 'bench');
        },
        bytes,
      );
    }
    for (const [name, store] of Object.entries(stores)) {
      await time(
        `all chained as the api does (${name})`,
        async () => {
          const ins = new CsvInspector({ sampleRows: 5 });
          const w = store.createWriter('upload', 'bench', 'big.csv');
          await parse(file, async (c) => {
            ins.push(c);
            await w.write(c);
          });
          ins.end();
          const meta = await w.commit({});
          await store.delete(meta.id, 'bench');
        },
        bytes,
      );
    }
  } finally {
    rmSync(file, { force: true });
    redis.disconnect();
    await s3.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
