#!/usr/bin/env node
// Last step of `npm run build:web`: writes a Brotli (.br) and a gzip (.gz) copy next to every text asset of
// dist/web (HTML, JS, CSS, SVG, JSON, XML, TXT) of 1 KB or more, at the highest levels (done once at build
// time, so the api never spends CPU compressing static files). The api serves a copy when the browser
// accepts it (apps/api/src/common/compression.ts). A copy that would not be smaller is not written.
// Usage: node scripts/precompress-web.js [dir]
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const root = path.resolve(__dirname, '..');
const dist = path.resolve(process.argv[2] || path.join(root, 'dist/web'));
const TEXT = /\.(html|js|mjs|css|svg|json|xml|txt|webmanifest)$/i;
const MIN_BYTES = 1024;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    // Vite's manifest folder is build metadata, never served.
    if (entry.isDirectory() && entry.name !== '.vite') yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

function main() {
  if (!fs.existsSync(dist)) {
    console.error(`precompress: ${dist} does not exist; run the web build first`);
    process.exit(1);
  }
  let count = 0;
  let raw = 0;
  let br = 0;
  for (const file of files(dist)) {
    if (!TEXT.test(file)) continue;
    const body = fs.readFileSync(file);
    if (body.length < MIN_BYTES) continue;
    const variants = {
      br: zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
      gz: zlib.gzipSync(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
    };
    for (const [ext, data] of Object.entries(variants)) {
      const target = `${file}.${ext}`;
      if (data.length < body.length) fs.writeFileSync(target, data);
      else fs.rmSync(target, { force: true });
    }
    count += 1;
    raw += body.length;
    br += Math.min(variants.br.length, body.length);
  }
  console.log(
    `precompress: ${count} files, ${(raw / 1024).toFixed(0)} KB → ${(br / 1024).toFixed(0)} KB with Brotli (+ gzip copies)`,
  );
}

main();
