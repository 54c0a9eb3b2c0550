#!/usr/bin/env node
// `node scripts/run-side-by-side.js lint typecheck`: runs the named npm scripts at the same time (each is one
// process on one core, so two take about as long as the longer one on a 2-core machine), prints each one's
// output whole once it ends, in the order named, and fails when any of them failed.
'use strict';
const { spawn } = require('node:child_process');

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: node scripts/run-side-by-side.js <npm script> [<npm script> ...]');
  process.exit(2);
}

const runs = names.map(
  (name) =>
    new Promise((resolve) => {
      const started = Date.now();
      const child = spawn('npm', ['run', '-s', name], { stdio: ['ignore', 'pipe', 'pipe'] });
      const output = [];
      child.stdout.on('data', (c) => output.push(c));
      child.stderr.on('data', (c) => output.push(c));
      child.on('error', (err) => output.push(Buffer.from(`${err.message}\n`)));
      child.on('close', (code) =>
        resolve({ name, code: code ?? 1, seconds: (Date.now() - started) / 1000, output }),
      );
    }),
);

Promise.all(runs).then((results) => {
  for (const r of results) {
    process.stdout.write(Buffer.concat(r.output));
    console.log(
      `${r.name}: ${r.code === 0 ? 'passed' : `failed (exit ${r.code})`} in ${r.seconds.toFixed(1)} s`,
    );
  }
  process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
});
