#!/usr/bin/env node
// npm run bench:lighthouse — Lighthouse 12.2.3 (mobile preset, simulated throttling: its defaults) against the
// built product, in Debian's Chromium. Starts the api on a free port with a fresh database and Redis prefix
// (the built web app from dist/web, or WEB_DIST=<dir> to measure another build in the same session), runs
// each page and prints performance, Total Blocking Time, Largest Contentful Paint, accessibility, SEO and
// the JavaScript transferred. Run it on a quiet machine (`/work/bin/heavy --browser npm run bench:lighthouse`):
// every figure moves with the load; compare runs made in the same session only.
//   LH_PAGES=/,/pricing   the pages (default: every public page, /auth, and the signed-in /dashboard)
//   LH_RUNS=3             runs per page; the median by performance score is printed (default 1)
//   LH_LABEL=before       names the JSON written to test-output/lighthouse/<label>.json
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { env: baseEnv, checkServices, freePort, waitForHealth, dropDatabase } = require('../scripts/lib');

const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-dev-shm-usage',
];
const DEFAULT_PAGES = [
  '/',
  '/csv-converter-online',
  '/quickbooks-csv-import',
  '/shopify-csv-upload',
  '/csv-uploader',
  '/help-center',
  '/documentation',
  '/privacy',
  '/terms',
  '/auth',
  '/dashboard',
];
/** Pages that need a signed-in session (the bench signs up a user and sends its cookie). */
const SIGNED_IN = new Set(['/dashboard', '/csv-mapper', '/saved-mappings', '/profile']);

async function signUp(url) {
  const id = randomBytes(4).toString('hex');
  const res = await fetch(`${url}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'csv-mapper' },
    body: JSON.stringify({
      username: `bench_${id}`,
      email: `bench_${id}@example.com`,
      password: `Bench-${id}-correct-horse`,
    }),
  });
  if (!res.ok) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  return cookies.join('; ');
}

function summarise(lhr) {
  const scripts = (lhr.audits['resource-summary']?.details?.items ?? []).find(
    (i) => i.resourceType === 'script',
  );
  const score = (c) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
  return {
    performance: score('performance'),
    tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue),
    lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue),
    fcpMs: Math.round(lhr.audits['first-contentful-paint'].numericValue),
    cls: Number(lhr.audits['cumulative-layout-shift'].numericValue.toFixed(3)),
    accessibility: score('accessibility'),
    seo: score('seo'),
    jsKb: Number(((scripts?.transferSize ?? 0) / 1024).toFixed(1)),
    finalUrl: lhr.finalDisplayedUrl,
    status: lhr.audits['http-status-code']?.score === 0 ? 'non-2xx' : 'ok',
  };
}

async function main() {
  const e = baseEnv();
  await checkServices(e);
  const pages = (process.env.LH_PAGES || DEFAULT_PAGES.join(',')).split(',').filter(Boolean);
  const runs = Math.max(1, Number(process.env.LH_RUNS || 1));
  const webDist = path.resolve(process.env.WEB_DIST || path.join(root, 'dist/web'));
  for (const f of ['dist/apps/api/src/main.js', 'dist/libs/db/src/index.js'])
    if (!fs.existsSync(path.join(root, f))) throw new Error(`${f} is missing: run "npm run build" first`);
  if (!fs.existsSync(path.join(webDist, 'index.html')))
    throw new Error(`${webDist}/index.html is missing: run "npm run build:web" first`);

  const tag = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const dbUrl = new URL(e.DATABASE_URL);
  dbUrl.pathname = `/csvmapper_lh_${tag}`;
  const db = require(path.join(root, 'dist/libs/db/src/index.js'));
  await db.ensureDatabase(dbUrl.toString());
  await db.runMigrations(dbUrl.toString());

  const port = await freePort();
  const url = `http://localhost:${port}`;
  const outDir = path.join(root, 'test-output/lighthouse');
  fs.mkdirSync(outDir, { recursive: true });
  const log = fs.openSync(path.join(outDir, 'server.log'), 'w');
  const api = spawn(process.execPath, [path.join(root, 'dist/apps/api/src/main.js')], {
    cwd: root,
    env: {
      ...e,
      // 'production' would add upgrade-insecure-requests and Secure cookies, which plain http://localhost
      // cannot use; the static files, compression and caching are the same in every mode.
      NODE_ENV: 'test',
      PORT: String(port),
      APP_URL: url,
      DATABASE_URL: dbUrl.toString(),
      REDIS_PREFIX: `csvm-lh-${tag}:`,
      WEB_DIST: webDist,
      LOG_LEVEL: 'warn',
      ENABLE_CRON: '0',
    },
    stdio: ['ignore', log, log],
  });

  let chrome;
  const results = [];
  try {
    await waitForHealth(url, [api], { seconds: 60, what: 'the api' });
    const cookie = pages.some((p) => SIGNED_IN.has(p)) ? await signUp(url) : '';
    chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
    console.log(`lighthouse 12.2.3, mobile preset, simulated throttling; ${webDist} served at ${url}`);
    for (const page of pages) {
      const samples = [];
      for (let i = 0; i < runs; i++) {
        const result = await lighthouse(`${url}${page}`, {
          port: chrome.port,
          logLevel: 'error',
          output: 'json',
          onlyCategories: ['performance', 'accessibility', 'seo'],
          extraHeaders: SIGNED_IN.has(page) && cookie ? { Cookie: cookie } : undefined,
        });
        if (!result) throw new Error(`lighthouse returned nothing for ${page}`);
        if (result.lhr.runtimeError) throw new Error(`${page}: ${result.lhr.runtimeError.message}`);
        samples.push(summarise(result.lhr));
      }
      samples.sort((a, b) => a.performance - b.performance);
      const median = { page, ...samples[Math.floor(samples.length / 2)] };
      results.push(median);
      console.log(
        `${page.padEnd(24)} perf ${String(median.performance).padStart(3)}  TBT ${String(median.tbtMs).padStart(5)} ms  ` +
          `LCP ${String(median.lcpMs).padStart(5)} ms  FCP ${String(median.fcpMs).padStart(5)} ms  CLS ${median.cls}  ` +
          `a11y ${median.accessibility}  SEO ${median.seo}  JS ${median.jsKb} KB${median.status === 'ok' ? '' : '  (HTTP error status)'}`,
      );
    }
  } finally {
    if (chrome) await chrome.kill();
    if (api.exitCode === null) api.kill('SIGTERM');
    await new Promise((r) => (api.exitCode !== null ? r() : api.on('exit', r)));
    await dropDatabase(e.DATABASE_URL, dbUrl.pathname.slice(1));
  }
  const file = path.join(outDir, `${process.env.LH_LABEL || 'latest'}.json`);
  fs.writeFileSync(file, `${JSON.stringify({ webDist, runs, results }, null, 2)}\n`);
  console.log(`wrote ${path.relative(root, file)}`);
}

main().catch((err) => {
  console.error('bench:lighthouse:', err);
  process.exit(1);
});
