#!/usr/bin/env node
// Starts the command-line tool: the built JavaScript (npm run build:server) when it is there, otherwise the
// TypeScript sources compiled on load with swc (a dev dependency, present after npm install in a clone).
'use strict';
// Node 22.1+ keeps the compiled code of the tool's modules on disk between runs (start-up); Node 20 has
// no such cache, and the tool loads only what a run needs either way (see apps/cli/src/run-recipe.ts).
const nodeModule = require('node:module');
if (typeof nodeModule.enableCompileCache === 'function') {
  try {
    nodeModule.enableCompileCache();
  } catch {
    // No cache directory: start without it.
  }
}
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
    const entry = m && path.join(root, 'libs', m[1], 'src/index.ts');
    if (entry && fs.existsSync(entry)) request = entry;
    return resolve.call(this, request, ...rest);
  };
  // TypeScript compiled on require with swc (a dev dependency): decorators and their metadata included.
  const { transformSync } = require(path.join(root, 'node_modules/@swc/core'));
  Module._extensions['.ts'] = function (module, filename) {
    const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
      filename,
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    });
    module._compile(code, filename);
  };
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
