'use strict';
// An S3-compatible server for tests and benchmarks (s3rver, in-process, on 127.0.0.1). It stores objects
// in a temporary directory that close() removes. It does not verify signatures: tests of signing and expiry
// check the URLs themselves.
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const S3rver = require('s3rver');

/** Browsers PUT presigned uploads straight to the bucket: it must answer their CORS preflight. */
const CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>600</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/**
 * Starts the server with one bucket and returns the settings the apps read (BLOB_STORE=s3 …).
 * @param {{ bucket?: string, port?: number }} [opts]
 */
async function startS3TestServer(opts = {}) {
  const bucket = opts.bucket || 'csvm-test';
  const directory = mkdtempSync(join(tmpdir(), 'csvm-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: opts.port || 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [CORS] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      BLOB_STORE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: '1',
      S3_SSE: 'AES256',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async close() {
      await server.close().catch(() => undefined);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * The same server in a child process of its own (benchmarks: its disk and CPU work then does not share
 * the caller's event loop). Resolves once it listens; close() stops it.
 * @param {{ bucket?: string }} [opts]
 */
function spawnS3TestServer(opts = {}) {
  const { fork } = require('node:child_process');
  const child = fork(__filename, ['--serve', opts.bucket || 'csvm-test'], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the S3 test server exited (${code})`)));
    child.once('message', (info) => {
      child.removeAllListeners('exit');
      resolve({
        ...info,
        close: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

if (require.main === module && process.argv[2] === '--serve') {
  startS3TestServer({ bucket: process.argv[3] }).then((server) => {
    process.send({ endpoint: server.endpoint, bucket: server.bucket, env: server.env });
    process.once('SIGTERM', () => server.close().then(() => process.exit(0)));
  });
}

module.exports = { startS3TestServer, spawnS3TestServer };
