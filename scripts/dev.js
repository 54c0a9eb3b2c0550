#!/usr/bin/env node
// `npm run dev`: api and worker from a fresh build, plus Vite with hot reload on :5173 proxying /api.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { root, env, checkServices, migrate } = require('./lib');

(async () => {
  const e = { ...env(), NODE_ENV: 'development' };
  await checkServices(e);
  const b = spawnSync('npm', ['run', '--silent', 'build:server'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status || 1);
  await migrate(e);
  const procs = [
    spawn(process.execPath, ['--enable-source-maps', 'dist/apps/api/src/main.js'], {
      cwd: root,
      env: e,
      stdio: 'inherit',
    }),
    spawn(process.execPath, ['--enable-source-maps', 'dist/apps/worker/src/main.js'], {
      cwd: root,
      env: e,
      stdio: 'inherit',
    }),
    spawn('npx', ['vite', '--config', 'apps/web/vite.config.ts'], { cwd: root, env: e, stdio: 'inherit' }),
  ];
  const stop = () => procs.forEach((p) => p.exitCode === null && p.kill('SIGTERM'));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  console.log(
    '\nDev: web with hot reload at http://localhost:5173 (api at http://localhost:' + e.PORT + ')\n',
  );
})().catch((err) => {
  console.error('csv-mapper dev:', err.message || err);
  process.exit(1);
});
