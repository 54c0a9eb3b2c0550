// Shared helpers for the start/dev/migrate scripts: plain Node, no build step needed.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const net = require('node:net');

const root = path.resolve(__dirname, '..');
const DEFAULTS = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/csvmapper',
  REDIS_URL: 'redis://127.0.0.1:6379',
  PORT: '3000',
};

function env() {
  return { ...DEFAULTS, ...Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== '')) };
}

function newestMtime(dir) {
  let newest = 0;
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else newest = Math.max(newest, fs.statSync(p).mtimeMs);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return newest;
}

function mtime(file) {
  return fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0;
}

/** Builds the server and/or the web app when their output is missing or older than the sources. */
function buildIfNeeded() {
  const serverOut = path.join(root, 'dist/apps/api/src/main.js');
  const webOut = path.join(root, 'dist/web/index.html');
  const serverSrc = Math.max(
    ...['apps/api', 'apps/worker', 'libs'].map((d) => newestMtime(path.join(root, d))),
  );
  const webSrc = Math.max(
    newestMtime(path.join(root, 'apps/web')),
    newestMtime(path.join(root, 'libs/domain')),
    newestMtime(path.join(root, 'libs/rules')),
  );
  const steps = [];
  if (mtime(serverOut) < serverSrc) steps.push('build:server');
  if (mtime(webOut) < webSrc) steps.push('build:web');
  for (const step of steps) {
    console.log(`csv-mapper: npm run ${step} ...`);
    const r = spawnSync('npm', ['run', '--silent', step], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) {
      console.error(`csv-mapper: "npm run ${step}" failed`);
      process.exit(r.status || 1);
    }
  }
}

function tcpReachable(url, fallbackPort) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname || '127.0.0.1', port: Number(u.port || fallbackPort) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** One clear line per missing dependency, then exit non-zero. */
async function checkServices(e) {
  const problems = [];
  if (!(await tcpReachable(e.DATABASE_URL, 5432))) {
    problems.push(
      `Postgres is not reachable at ${redact(e.DATABASE_URL)}. Start it with "docker compose up -d postgres" ` +
        `(or on Debian: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start).`,
    );
  }
  if (!(await tcpReachable(e.REDIS_URL, 6379))) {
    problems.push(
      `Redis is not reachable at ${redact(e.REDIS_URL)}. Start it with "docker compose up -d redis" ` +
        `(or: redis-server --daemonize yes --port 6379).`,
    );
  }
  if (problems.length) {
    for (const p of problems) console.error(`csv-mapper: ${p}`);
    process.exit(1);
  }
}

function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

async function migrate(e) {
  const db = require(path.join(root, 'dist/libs/db/src/index.js'));
  const created = await db.ensureDatabase(e.DATABASE_URL);
  if (created) console.log(`csv-mapper: created database ${new URL(e.DATABASE_URL).pathname.slice(1)}`);
  const ran = await db.runMigrations(e.DATABASE_URL);
  if (ran.length) console.log(`csv-mapper: ran migrations: ${ran.join(', ')}`);
}

/** A free TCP port on 127.0.0.1 (the OS picks it; the listener is closed before it answers). */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Waits until `${url}/api/health` answers 2xx, asking every 250 ms for `seconds`; throws when one of `procs`
 * exits first (`what` names them in the message).
 */
async function waitForHealth(url, procs, { seconds, what }) {
  for (let i = 0; i < seconds * 4; i++) {
    if (procs.some((p) => p.exitCode !== null)) throw new Error(`${what} exited during start`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the api did not become healthy within ${seconds} s`);
}

/** Drops database `name` on the server of `baseUrl` (connected through its postgres database). */
async function dropDatabase(baseUrl, name) {
  const { Client } = require('pg');
  const admin = new URL(baseUrl);
  admin.pathname = '/postgres';
  const c = new Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.end();
}

module.exports = { root, env, buildIfNeeded, checkServices, migrate, freePort, waitForHealth, dropDatabase };
