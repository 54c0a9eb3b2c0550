#!/usr/bin/env node
// `npm start`: build what is not built, check Postgres and Redis, create and migrate the database,
// then run the api (serving the web app) and the worker until Ctrl-C.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');
const { root, env, buildIfNeeded, checkServices, migrate } = require('./lib');

async function main() {
  const e = env();
  await checkServices(e);
  buildIfNeeded();
  await migrate(e);

  const children = [
    ['api', 'dist/apps/api/src/main.js'],
    ['worker', 'dist/apps/worker/src/main.js'],
  ].map(([name, file]) => {
    const child = spawn(process.execPath, ['--enable-source-maps', path.join(root, file)], {
      cwd: root,
      env: e,
      stdio: 'inherit',
    });
    child.on('exit', (code, signal) => {
      if (stopping) return;
      console.error(`csv-mapper: ${name} exited (${signal || code}); stopping`);
      shutdown(code || 1);
    });
    return child;
  });

  let stopping = false;
  function shutdown(code) {
    if (stopping) return;
    stopping = true;
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    setTimeout(() => process.exit(code), 25_000).unref();
    Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.on('exit', r))))).then(
      () => process.exit(code),
    );
  }
  process.on('SIGINT', () => shutdown(0));
  process.on('SIGTERM', () => shutdown(0));

  const url = `http://localhost:${e.PORT}`;
  for (let i = 0; i < 120 && !stopping; i++) {
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) {
        console.log(`\nCSV Mapper is running at ${url}\n`);
        return;
      }
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

main().catch((err) => {
  console.error('csv-mapper: failed to start:', err.message || err);
  process.exit(1);
});
