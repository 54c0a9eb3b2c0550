#!/usr/bin/env node
// Fails when the JavaScript a visitor's browser downloads for a public page exceeds its gzip budget.
// Reads Vite's manifest (dist/web/.vite/manifest.json): a page loads the entry chunk and its static
// imports, the public-app chunk the entry loads at once to hydrate, plus the page's own chunk and their static
// imports. Other dynamic imports are not followed (they load later, on demand). Run after `npm run build:web`; `npm test` runs it.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist/web');
const BUDGET_KB = 150;
/**
 * Route → the module the entry imports for it, read from the app's own table (apps/web/src/public-pages.ts),
 * so every public page is checked and a new one is not missed.
 */
const PAGES = Object.fromEntries(
  [
    ...fs
      .readFileSync(path.join(root, 'apps/web/src/public-pages.ts'), 'utf8')
      .matchAll(/'(\/[^']*)':\s*\(\)\s*=>\s*import\('\.\/([^']+)'\)/g),
  ].map(([, route, mod]) => [route, `src/${mod}.tsx`]),
);
if (Object.keys(PAGES).length === 0) {
  console.error('check-js-budget: no public pages found in apps/web/src/public-pages.ts');
  process.exit(1);
}
/** The module the entry imports to hydrate a public page. */
const PUBLIC_APP = 'src/public-app.tsx';
/** Code that must never reach a public page. */
const FORBIDDEN = [/@dnd-kit\//, /src\/features\/mapper\//, /src\/pages\/csv-mapper\//];

function loadManifest() {
  const file = path.join(dist, '.vite/manifest.json');
  if (!fs.existsSync(file)) {
    console.error(`check-js-budget: ${path.relative(root, file)} is missing; run "npm run build:web" first`);
    process.exit(1);
  }
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** Every chunk key reachable through static imports from `keys`. */
function closure(manifest, keys) {
  const seen = new Set();
  const walk = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest has no chunk "${key}"`);
    seen.add(key);
    for (const imp of chunk.imports ?? []) walk(imp);
  };
  keys.forEach(walk);
  return seen;
}

/** Source files a chunk was built from, read from its source map (when present). */
function sourcesOf(file) {
  const map = path.join(dist, `${file}.map`);
  if (!fs.existsSync(map)) return [];
  return JSON.parse(fs.readFileSync(map, 'utf8')).sources ?? [];
}

function main() {
  const manifest = loadManifest();
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entryKey) throw new Error('the manifest has no entry chunk');
  let failed = false;
  for (const [route, pageKey] of Object.entries(PAGES)) {
    // The entry hydrates a prerendered public page through src/public-app.tsx (a dynamic import the entry
    // makes at once), so that chunk and the page's chunk load before the page is interactive.
    const keys = closure(manifest, [entryKey, PUBLIC_APP, pageKey]);
    let total = 0;
    const offenders = [];
    const sizes = [];
    for (const key of keys) {
      const { file } = manifest[key];
      if (!file.endsWith('.js')) continue;
      const size = zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
      total += size;
      sizes.push([file, size]);
      for (const src of sourcesOf(file)) if (FORBIDDEN.some((re) => re.test(src))) offenders.push(src);
    }
    const kb = total / 1024;
    const ok = kb <= BUDGET_KB && offenders.length === 0;
    console.log(
      `check-js-budget: ${route.padEnd(24)} ${kb.toFixed(1)} KB gzipped JS in ${keys.size} chunks (budget ${BUDGET_KB} KB) ${ok ? 'ok' : 'FAIL'}`,
    );
    for (const o of [...new Set(offenders)]) console.error(`  loads app-only code: ${o}`);
    if (!ok)
      for (const [file, size] of sizes.sort((x, y) => y[1] - x[1]).slice(0, 4))
        console.error(`  ${(size / 1024).toFixed(1).padStart(6)} KB  ${file}`);
    if (!ok) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

main();
