#!/usr/bin/env node
// Starts the command-line tool: the built JavaScript (npm run build:server) when it is there, otherwise the
// TypeScript sources through ts-node (a dev dependency, present after npm install in a clone).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../../..');
const built = path.join(root, 'dist/apps/cli/src/main.js');

function fromSources() {
  const Module = require('node:module');
  const resolve = Module._resolveFilename;
  // The libraries are workspaces without a build step: point their names at their sources.
  Module._resolveFilename = function (request, ...rest) {
    const m = /^@csv-mapper\/([\w-]+)$/.exec(request);
    if (m && m[1] !== 'cli') request = path.join(root, 'libs', m[1], 'src/index.ts');
    return resolve.call(this, request, ...rest);
  };
  require(path.join(root, 'node_modules/ts-node')).register({
    transpileOnly: true,
    project: path.join(root, 'tsconfig.json'),
    compilerOptions: { module: 'commonjs', moduleResolution: 'node10', ignoreDeprecations: '6.0' },
  });
  return require(path.join(root, 'apps/cli/src/main.ts'));
}

const cli = fs.existsSync(built) && !process.env.CSV_MAPPER_FROM_SOURCES ? require(built) : fromSources();
cli.main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`csv-mapper: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
