// `npm run bench:api-memory` (needs `npm run build:server` first; never part of npm test).
// Issue 28, finding 5: the audit saw the api's RSS at 455 MB after 10,000 fuzz bodies (244 MB before). Is it
// a leak? The built api runs with --expose-gc and bench/api-memory.probe.js preloaded; rounds of seeded
// random JSON bodies (the fuzz test's, apps/api/test/support/fuzz-bodies.ts: random objects, mapping-shaped
// bodies with holes, nesting past the depth limit, non-JSON text) go to every POST/PUT/PATCH route of its
// OpenAPI document, signed in and with an API key. After each round it prints RSS and heapUsed, then the
// same after a forced full GC. A leak keeps growing after GC round after round; V8 sizing its heap grows RSS
// in the first rounds and plateaus.
// Environment: API_MEMORY_ROUNDS (default 5), API_MEMORY_BODIES per round (default 10000), FUZZ_SEED;
// API_MEMORY_FROM_SOURCE=1 runs apps/api/src/main.ts through run-ts.js instead of the build.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { fuzzBody } from '../apps/api/test/support/fuzz-bodies';
import { H, startStack } from './support/stack';

const ROUNDS = Number(process.env.API_MEMORY_ROUNDS ?? 5);
const BODIES = Number(process.env.API_MEMORY_BODIES ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 28_2026);
const FROM_SOURCE = process.env.API_MEMORY_FROM_SOURCE === '1';
const LANES = 4;
const DESTRUCTIVE = ['/api/logout', '/api/user/delete-account'];
const UPLOADS = ['/api/upload', '/api/upload/template', '/api/upload/data'];

interface Memory {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
}

async function main(): Promise<void> {
  const root = resolve(__dirname, '..');
  if (!FROM_SOURCE && !existsSync(join(root, 'dist/apps/api/src/main.js')))
    throw new Error('run `npm run build:server` first');
  const probeFile = join(tmpdir(), `csvm-api-memory-${process.pid}.json`);
  const stack = await startStack({
    fromSource: FROM_SOURCE,
    apiNodeArgs: ['--expose-gc', '-r', join(root, 'bench/api-memory.probe.js')],
    env: { API_MEMORY_PROBE_FILE: probeFile, UPLOADS_PER_IP: '100000', LOG_LEVEL: 'warn' },
  });
  const memory = async (): Promise<{ before: Memory; afterGc: Memory }> => {
    rmSync(probeFile, { force: true });
    stack.api.kill('SIGWINCH');
    for (let i = 0; i < 100 && !existsSync(probeFile); i++) await new Promise((r) => setTimeout(r, 100));
    return JSON.parse(readFileSync(probeFile, 'utf8')) as { before: Memory; afterGc: Memory };
  };
  try {
    const keyRes = await stack.call('/api/api-keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'memory bench' }),
    });
    const apiKey = ((await keyRes.json()) as { key: string }).key;
    const doc = (await (await stack.call('/api/docs/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      ['post', 'put', 'patch']
        .filter((m) => m in ops && !UPLOADS.includes(path))
        .map((m) => ({ method: m.toUpperCase(), path })),
    );
    const ids = ['00000000-0000-0000-0000-000000000000', 'abc', '1', 'x'.repeat(300), '..'];
    const restore = () =>
      stack.pg.query(`UPDATE users SET plan = 'enterprise' WHERE id = $1`, [stack.userId]);

    const rows: string[] = [];
    const show = (label: string, m: { before: Memory; afterGc: Memory }, statuses = '') =>
      rows.push(
        `| ${label} | ${m.before.rss} | ${m.before.heapUsed} | ${m.afterGc.rss} | ${m.afterGc.heapUsed} | ${m.afterGc.heapTotal} | ${m.afterGc.external} | ${statuses} |`,
      );
    console.log(
      `api-memory: ${ROUNDS} rounds x ${BODIES} bodies over ${routes.length} routes (seed ${SEED}), node ${process.version}, ${FROM_SOURCE ? 'api from source' : 'built api'}`,
    );
    show('start', await memory());
    for (let round = 1; round <= ROUNDS; round++) {
      const cases = fc.sample(fc.tuple(fuzzBody, fc.nat(), fc.constantFrom(...ids)), {
        seed: SEED + round,
        numRuns: BODIES,
      });
      const statuses = new Map<string, number>();
      let next = 0;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: LANES }, async () => {
          while (next < cases.length) {
            const i = next++;
            const [b, pick, id] = cases[i];
            const route = routes[(i + pick) % routes.length];
            const anonymous = DESTRUCTIVE.includes(route.path);
            const auth: Record<string, string> = anonymous
              ? {}
              : i % 2
                ? { authorization: `Bearer ${apiKey}` }
                : { cookie: stack.cookie };
            const raw = typeof b === 'object' && b !== null && 'raw' in b && Object.keys(b).length === 1;
            const res = await fetch(
              `${stack.base}${route.path.replace(/\{[^}]+\}/g, encodeURIComponent(id))}`,
              {
                method: route.method,
                headers: { ...H, ...auth, 'content-type': 'application/json' },
                body: raw ? String((b as { raw: string }).raw) : JSON.stringify(b),
              },
            ).catch(() => null);
            const s = res ? String(res.status) : 'no answer';
            statuses.set(s, (statuses.get(s) ?? 0) + 1);
            await res?.arrayBuffer().catch(() => undefined);
            if (i % 100 === 99) await restore();
          }
        }),
      );
      const secs = ((Date.now() - started) / 1000).toFixed(0);
      const counts = [...statuses.entries()]
        .sort()
        .map(([s, n]) => `${s}×${n}`)
        .join(' ');
      show(`after round ${round} (${secs} s)`, await memory(), counts);
    }
    console.log(
      '| when | RSS MB | heapUsed MB | RSS after GC | heapUsed after GC | heapTotal after GC | external after GC | statuses |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const r of rows) console.log(r);
  } finally {
    rmSync(probeFile, { force: true });
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
