#!/usr/bin/env node
// postinstall: builds the optional native row-fingerprint addon (libs/csv-engine/native) with node-gyp,
// against the headers of the node that runs (npm's nodedir). It is optional: when the machine has no C
// compiler or Python, the build fails, one line says so, and the engine uses its JavaScript HMAC (same
// fingerprints, slower). CSVM_SKIP_NATIVE=1 skips it.
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join, dirname } = require('node:path');

const dir = join(__dirname, '..', 'libs', 'csv-engine', 'native');
if (process.env.CSVM_SKIP_NATIVE === '1') process.exit(0);

function nodeGyp() {
  if (process.env.npm_config_node_gyp && existsSync(process.env.npm_config_node_gyp))
    return process.env.npm_config_node_gyp;
  const npmCli = process.env.npm_execpath;
  const candidates = [
    npmCli && join(dirname(npmCli), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    join(
      dirname(process.execPath),
      '..',
      'lib',
      'node_modules',
      'npm',
      'node_modules',
      'node-gyp',
      'bin',
      'node-gyp.js',
    ),
    '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
    '/usr/share/nodejs/node-gyp/bin/node-gyp.js',
  ];
  return candidates.find((c) => c && existsSync(c)) ?? null;
}

const gyp = nodeGyp();
if (!gyp) {
  console.log('csv-mapper: node-gyp not found; row fingerprints use the JavaScript HMAC');
  process.exit(0);
}
const r = spawnSync(process.execPath, [gyp, 'rebuild', '--loglevel=error'], { cwd: dir, encoding: 'utf8' });
if (r.status !== 0) {
  const why = `${r.stderr ?? ''}`.trim().split('\n').filter(Boolean).slice(-1)[0] ?? `exit ${r.status}`;
  console.log(`csv-mapper: native row fingerprints not built (${why}); the JavaScript HMAC is used`);
  process.exit(0);
}
console.log('csv-mapper: native row fingerprints built');
