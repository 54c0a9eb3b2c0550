#!/usr/bin/env node
// Fails when the JavaScript a visitor's browser downloads for a public page exceeds its gzip budget.
// Reads what each prerendered page really loads: the <script src> and <link rel="modulepreload"> of its HTML
// in dist/web (scripts/prerender-web.js writes them), plus every chunk those import statically (Vite's
// manifest, dist/web/.vite/manifest.json). Dynamic imports are not followed (they load later, on demand).
// The sign-in page (/auth) is static too, with an island of its own, and held to the same budget. The
// dashboard, served with its first screen in the HTML, is held to it for what loads before that screen
// paints: its HTML minus the <template> of preloads the app adds after the paint
// (scripts/prerender-web.js), so React, Chakra and emotion never stand before it.
// Run after `npm run build:web`; `npm test` runs it.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist/web');
const BUDGET_KB = 60;
/** Every prerendered public page, read from the app's own table so a new one is not missed. */
const ROUTES = [
  ...fs
    .readFileSync(path.join(root, 'apps/web/src/features/public/public-routes.ts'), 'utf8')
    .matchAll(/\{ path: '(\/[^']*)', priority/g),
].map((m) => m[1]);
if (ROUTES.length === 0) {
  console.error('check-js-budget: no public pages found in apps/web/src/features/public/public-routes.ts');
  process.exit(1);
}
/** The sign-in page, prerendered with its forms' island (scripts/prerender-web.js signInPage). */
const SIGN_IN_PAGES = ['/auth'];
/** App pages whose shell carries a first-screen frame (scripts/prerender-web.js APP_SHELLS). */
const FRAME_PAGES = ['/dashboard'];
/** Code that must never reach a public page (nor load before a frame's first paint). */
const FORBIDDEN = [
  /@dnd-kit\//,
  /src\/features\/mapper\//,
  /src\/pages\/csv-mapper\//,
  /node_modules\/react-dom\//,
  /node_modules\/@emotion\//,
  /node_modules\/@chakra-ui\//,
];

function loadManifest() {
  const file = path.join(dist, '.vite/manifest.json');
  if (!fs.existsSync(file)) {
    console.error(`check-js-budget: ${path.relative(root, file)} is missing; run "npm run build:web" first`);
    process.exit(1);
  }
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The JS files (paths under dist/web) a page's HTML loads, with their static imports. */
function scriptsOf(page, byFile) {
  const html = page.replace(/<template\b[\s\S]*?<\/template>/g, '');
  const direct = [
    ...html.matchAll(/<script\b[^>]*\bsrc="\/([^"]+\.js)"/g),
    ...html.matchAll(/<link rel="modulepreload"[^>]*\bhref="\/([^"]+\.js)"/g),
    // What the sign-in page's boot script loads after the first paint (scripts/prerender-web.js signInPage).
    ...html.matchAll(/\bdata-island="\/([^"]+\.js)"/g),
  ].map((m) => m[1]);
  for (const [, list] of html.matchAll(/\bdata-preload="([^"]*)"/g))
    direct.push(
      ...list
        .split(' ')
        .filter(Boolean)
        .map((f) => f.replace(/^\//, '')),
    );
  const seen = new Set();
  const walk = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imp of byFile.get(file)?.imports ?? []) walk(byFile.get(imp)?.file ?? imp);
  };
  direct.forEach(walk);
  return [...seen];
}

/** Source files a chunk was built from, read from its source map (when present). */
function sourcesOf(file) {
  const map = path.join(dist, `${file}.map`);
  if (!fs.existsSync(map)) return [];
  return JSON.parse(fs.readFileSync(map, 'utf8')).sources ?? [];
}

function main() {
  const manifest = loadManifest();
  // file → chunk, with `imports` given as manifest keys; map those keys to files for the walk.
  const byFile = new Map();
  for (const chunk of Object.values(manifest))
    byFile.set(chunk.file, { imports: (chunk.imports ?? []).map((k) => manifest[k].file) });
  let failed = false;
  for (const route of [...ROUTES, '/404', ...SIGN_IN_PAGES, ...FRAME_PAGES]) {
    const file =
      route === '/' ? 'index.html' : route === '/404' ? '404.html' : path.join(route.slice(1), 'index.html');
    const htmlFile = path.join(dist, file);
    if (!fs.existsSync(htmlFile)) {
      console.error(
        `check-js-budget: ${path.relative(root, htmlFile)} is missing (was the page prerendered?)`,
      );
      failed = true;
      continue;
    }
    const files = scriptsOf(fs.readFileSync(htmlFile, 'utf8'), byFile);
    let total = 0;
    const offenders = [];
    const sizes = [];
    for (const f of files) {
      const size = zlib.gzipSync(fs.readFileSync(path.join(dist, f)), { level: 9 }).length;
      total += size;
      sizes.push([f, size]);
      for (const src of sourcesOf(f)) if (FORBIDDEN.some((re) => re.test(src))) offenders.push(src);
    }
    const kb = total / 1024;
    const ok = kb <= BUDGET_KB && offenders.length === 0;
    console.log(
      `check-js-budget: ${route.padEnd(24)} ${kb.toFixed(1)} KB gzipped JS in ${files.length} files${FRAME_PAGES.includes(route) ? ' before its first paint' : ''} (budget ${BUDGET_KB} KB) ${ok ? 'ok' : 'FAIL'}`,
    );
    for (const o of [...new Set(offenders)]) console.error(`  loads app-only code: ${o}`);
    if (!ok)
      for (const [f, size] of sizes.sort((x, y) => y[1] - x[1]).slice(0, 4))
        console.error(`  ${(size / 1024).toFixed(1).padStart(6)} KB  ${f}`);
    if (!ok) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

main();
