#!/usr/bin/env node
// Runs a TypeScript entry point of this repo straight from source (no build): `.ts` files are compiled
// on require with swc (decorators + metadata, CommonJS) and `@csv-mapper/<lib>` resolves to
// libs/<lib>/src. Used by tests that start the real api/worker as child processes.
// Usage: node bench/support/run-ts.js apps/worker/src/main.ts
'use strict';
const Module = require('node:module');
const { existsSync, readFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { transformSync } = require('@swc/core');

const root = resolve(__dirname, '../..');
const libs = /^@csv-mapper\/([a-z-]+)$/;

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const m = libs.exec(request);
  const entry = m && join(root, 'libs', m[1], 'src/index.ts');
  if (entry && existsSync(entry)) request = entry;
  return resolveFilename.call(this, request, ...rest);
};

Module._extensions['.ts'] = function (module, filename) {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    sourceMaps: 'inline',
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};

const entry = process.argv[2];
if (!entry) {
  console.error('usage: run-ts.js <file.ts>');
  process.exit(2);
}
process.argv.splice(1, 1);
require(resolve(root, entry));
