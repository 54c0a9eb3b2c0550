'use strict';
// An S3-compatible server for tests and benchmarks (s3rver, in-process, on 127.0.0.1). It stores objects
// in a temporary directory that close() removes. s3rver itself accepts any signature, so clients reach it
// through a proxy that verifies AWS Signature V4 as S3 does (s3-sigv4-verifier.js): a wrong secret, an
// expired or tampered presigned URL, a PUT of another length or without the signed encryption header are
// refused with S3's 403s. `endpoint` is that proxy; `unverifiedEndpoint` is s3rver itself, for a test that
// has to put bytes in the bucket the way a client never could.
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const S3rver = require('s3rver');
const { startSigV4Proxy } = require('./s3-sigv4-verifier');

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
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [CORS] }],
  });
  const { port } = await server.run();
  const unverifiedEndpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  let proxy;
  try {
    proxy = await startSigV4Proxy({
      upstream: unverifiedEndpoint,
      secrets: new Map([[accessKeyId, secretAccessKey]]),
      region,
      port: opts.port || 0,
    });
  } catch (err) {
    await server.close().catch(() => undefined);
    rmSync(directory, { recursive: true, force: true });
    throw err;
  }
  const endpoint = proxy.endpoint;
  return {
    endpoint,
    unverifiedEndpoint,
    refusals: proxy.refusals,
    bucket,
    env: {
      BLOB_STORE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: region,
      S3_FORCE_PATH_STYLE: '1',
      S3_SSE: 'AES256',
      AWS_ACCESS_KEY_ID: accessKeyId,
      AWS_SECRET_ACCESS_KEY: secretAccessKey,
    },
    async close() {
      await proxy.close().catch(() => undefined);
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
    process.send({
      endpoint: server.endpoint,
      unverifiedEndpoint: server.unverifiedEndpoint,
      refusals: [],
      bucket: server.bucket,
      env: server.env,
    });
    process.once('SIGTERM', () => server.close().then(() => process.exit(0)));
  });
}

/** BlobStore settings (libs/queue's createBlobStore) for the s3 driver on `server`, objects under `keyPrefix`. */
function s3StoreSettings(server, keyPrefix) {
  return {
    driver: 's3',
    bucket: server.bucket,
    region: 'us-east-1',
    endpoint: server.endpoint,
    forcePathStyle: true,
    sse: 'AES256',
    keyPrefix,
  };
}

module.exports = { startS3TestServer, spawnS3TestServer, s3StoreSettings };
