#!/usr/bin/env node
// Browser tests against the real running stack: builds what is not built, creates a fresh database and
// Redis key prefix, starts an in-process SMTP server (mails saved for the tests to read), the api and
// the worker on free ports, runs Playwright in Debian's Chromium, then tears everything down.
'use strict';
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const {
  root,
  env: baseEnv,
  buildIfNeeded,
  checkServices,
  freePort,
  waitForHealth,
  dropDatabase,
} = require('../scripts/lib');
const { startS3TestServer } = require('../scripts/s3-test-server');

const outDir = path.join(root, 'test-output', 'e2e');
const mailDir = path.join(outDir, 'mail');

async function startSmtp(port) {
  const { SMTPServer } = require('smtp-server');
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', () => {
        n += 1;
        const to = session.envelope.rcptTo.map((r) => r.address);
        fs.writeFileSync(
          path.join(mailDir, `${Date.now()}-${n}.json`),
          JSON.stringify({ to, raw: Buffer.concat(chunks).toString('utf8') }),
        );
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

async function main() {
  const e = baseEnv();
  await checkServices(e);
  buildIfNeeded();
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(mailDir, { recursive: true });

  const tag = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const dbUrl = new URL(process.env.TEST_DATABASE_URL || e.DATABASE_URL);
  dbUrl.pathname = `/csvmapper_e2e_${tag}`;
  const db = require(path.join(root, 'dist/libs/db/src/index.js'));
  await db.ensureDatabase(dbUrl.toString());
  await db.runMigrations(dbUrl.toString());

  const [port, smtpPort, webhookPort] = [await freePort(), await freePort(), await freePort()];
  const smtp = await startSmtp(smtpPort);
  const appUrl = `http://localhost:${port}`;
  const env = {
    ...e,
    NODE_ENV: 'test',
    PORT: String(port),
    APP_URL: appUrl,
    DATABASE_URL: dbUrl.toString(),
    REDIS_PREFIX: `csvm-e2e-${tag}:`,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL || 'warn',
    ENABLE_CRON: '0',
    // the browser tests sign up a fresh user per test, all from 127.0.0.1
    REGISTRATIONS_PER_IP_PER_HOUR: '1000',
    // three Playwright workers upload at once from 127.0.0.1 (bulk uploads send several files together)
    UPLOADS_PER_IP: '30',
    // the webhook tests run a receiver on this loopback port; the SSRF guard refuses loopback otherwise
    WEBHOOK_ALLOWED_IPS: `127.0.0.1:${webhookPort}`,
  };
  const logFile = fs.openSync(path.join(outDir, 'server.log'), 'w');
  const startPair = (pairEnv) =>
    ['dist/apps/api/src/main.js', 'dist/apps/worker/src/main.js'].map((f) =>
      spawn(process.execPath, ['--enable-source-maps', path.join(root, f)], {
        cwd: root,
        env: pairEnv,
        stdio: ['ignore', logFile, logFile],
      }),
    );
  // The default run uses the memory driver; a second api + worker keep files in an in-process S3 server
  // for the direct-upload (presigned) tests, which reach it through E2E_S3_BASE_URL.
  const s3 = await startS3TestServer();
  const s3Port = await freePort();
  const s3AppUrl = `http://localhost:${s3Port}`;
  const s3Env = {
    ...env,
    ...s3.env,
    PORT: String(s3Port),
    APP_URL: s3AppUrl,
    REDIS_PREFIX: `csvm-e2e-${tag}-s3:`,
  };
  // billing.spec moves the simulated billing clock, which is one per database: a third api + worker with a
  // database of their own let it run beside the other tests instead of after them (E2E_BILLING_BASE_URL).
  const billingDbUrl = new URL(dbUrl);
  billingDbUrl.pathname = `${dbUrl.pathname}_billing`;
  await db.ensureDatabase(billingDbUrl.toString());
  await db.runMigrations(billingDbUrl.toString());
  const billingPort = await freePort();
  const billingAppUrl = `http://localhost:${billingPort}`;
  const billingEnv = {
    ...env,
    PORT: String(billingPort),
    APP_URL: billingAppUrl,
    DATABASE_URL: billingDbUrl.toString(),
    REDIS_PREFIX: `csvm-e2e-${tag}-billing:`,
  };
  const procs = [...startPair(env), ...startPair(s3Env), ...startPair(billingEnv)];

  let code = 1;
  try {
    const health = { seconds: 30, what: 'a server process' };
    await waitForHealth(appUrl, procs, health);
    await waitForHealth(s3AppUrl, procs, health);
    await waitForHealth(billingAppUrl, procs, health);
    code = await new Promise((resolve) => {
      const pw = spawn(
        process.execPath,
        [
          require.resolve('@playwright/test/cli'),
          'test',
          '-c',
          path.join(__dirname, 'playwright.config.ts'),
          ...process.argv.slice(2),
        ],
        {
          cwd: root,
          stdio: 'inherit',
          env: {
            ...process.env,
            E2E_BASE_URL: appUrl,
            E2E_S3_BASE_URL: s3AppUrl,
            E2E_BILLING_BASE_URL: billingAppUrl,
            E2E_S3_ENDPOINT: s3.endpoint,
            E2E_MAIL_DIR: mailDir,
            E2E_DATABASE_URL: env.DATABASE_URL,
            E2E_WEBHOOK_PORT: String(webhookPort),
          },
        },
      );
      pw.on('exit', (c) => resolve(c ?? 1));
    });
  } catch (err) {
    console.error(`e2e: ${err.message}; server log: ${path.join(outDir, 'server.log')}`);
    console.error(fs.readFileSync(path.join(outDir, 'server.log'), 'utf8').split('\n').slice(-30).join('\n'));
  } finally {
    for (const p of procs) if (p.exitCode === null) p.kill('SIGTERM');
    await Promise.all(procs.map((p) => new Promise((r) => (p.exitCode !== null ? r() : p.on('exit', r)))));
    smtp.close();
    await s3.close();
    await dropDatabase(e.DATABASE_URL, dbUrl.pathname.slice(1));
    await dropDatabase(e.DATABASE_URL, billingDbUrl.pathname.slice(1));
    for (const prefix of [env.REDIS_PREFIX, s3Env.REDIS_PREFIX, billingEnv.REDIS_PREFIX])
      await deletePrefix(e.REDIS_URL, prefix);
  }
  process.exit(code);
}

async function deletePrefix(redisUrl, prefix) {
  const IORedis = require('ioredis');
  const r = new IORedis(redisUrl);
  let cursor = '0';
  do {
    const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await r.del(...keys);
  } while (cursor !== '0');
  r.disconnect();
}

main().catch((err) => {
  console.error('e2e:', err);
  process.exit(1);
});
