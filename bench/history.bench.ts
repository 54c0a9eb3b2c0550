// Run history bench (`npm run bench:history`; never part of `npm test`). Issue 30's goal: a 1,000,000-row run
// of a saved mapping against a history of 12 earlier 1M-row runs costs at most 1.2× the same run without
// history, with peak RSS at most 300 MB.
//
// The parent makes a database (BENCH_DATABASE_URL, default csvm_bench_history on the local Postgres), runs
// the migrations, a team and a saved mapping, and the history: 12 runs × 1M fingerprints written straight
// into mapping_fingerprints (random 8-byte values in their buckets — for speed, instead of running 12
// files; none matches the bench file, so every lookup of the measured run is a miss, the longest probe).
// Each measured variant runs in its own child process (so peak RSS is that variant's alone, from
// process.resourceUsage().maxRSS), in rounds (BENCH_RUNS, default 3), alternating:
//   plain    — applyMapping on the engine bench's 1M-row file, no history (the run without the feature);
//   first    — the same through RunHistoryStore with an empty history (a mapping's first run: fingerprints
//              computed and stored);
//   history  — RunHistoryStore.start (loads the 12M fingerprints into the set), the run with every row
//              looked up, then complete (stores the run's 1M fingerprints).
//   history-sync — the same with the addon's work kept on the main thread (CSVM_NATIVE_ASYNC=0; by default
//              hashing, loading and lookups run on libuv's thread pool while the main thread maps);
//   first-js, history-js — the same two with the native fingerprint addon turned off
//              (CSVM_NATIVE_FINGERPRINTS=0: the JavaScript HMAC of hmac.ts), for a same-run comparison.
// The time of `first` and `history` includes loading and storing. The children's runs are deleted after
// each round, so the history stays at 12 runs.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { applyMapping, BUCKETS } from '../libs/csv-engine/src';
import { buildDataSourceOptions, ensureDatabase, runMigrations, RunHistoryStore } from '../libs/db/src';
import { generate } from './engine/generate';
import { NORMALISE_HEADERS, normalisePairs } from './support/normalise-job';

const DATA = join(__dirname, '.data');
const FILE = join(DATA, 'history-bench.csv');
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const HISTORY_RUNS = Number(process.env.BENCH_HISTORY_RUNS ?? 12);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/csvm_bench_history';
const HEADERS = NORMALISE_HEADERS;
const MAPPINGS = normalisePairs();

async function connect(): Promise<DataSource> {
  await ensureDatabase(DB_URL);
  const ds = new DataSource(buildDataSourceOptions(DB_URL));
  await ds.initialize();
  return ds;
}

interface Ids {
  teamId: string;
  mappingId: string;
}

/** The id of the "first run" variant's mapping (no history): the history mapping's id, last digit changed. */
function emptyIdOf(mappingId: string): string {
  return mappingId.replace(/.$/, (d) => (d === '0' ? '1' : '0'));
}

/** One variant in this (child) process: prints one JSON line. */
async function child(variant: 'plain' | 'first' | 'history', ids: Ids): Promise<void> {
  const ds = variant === 'plain' ? null : await connect();
  const store = ds ? new RunHistoryStore(ds) : null;
  const start = process.hrtime.bigint();
  let loadMs = 0;
  let storeMs = 0;
  let readyMs = 0;
  let started: Awaited<ReturnType<RunHistoryStore['start']>> | null = null;
  if (store) {
    started = await store.start({
      mappingId: variant === 'first' ? emptyIdOf(ids.mappingId) : ids.mappingId,
      teamId: ids.teamId,
      userId: ids.teamId,
      source: 'api',
      duplicates: 'flag',
      keyColumns: null,
      dataFilename: 'history-bench.csv',
    });
    loadMs = Number(process.hrtime.bigint() - start) / 1e6;
    // When the earlier fingerprints are all in the set (the load runs beside the mapping).
    started.history.ready().then(
      () => (readyMs = Number(process.hrtime.bigint() - start) / 1e6),
      () => undefined,
    );
  }
  const { output, stats } = applyMapping(
    createReadStream(FILE, { highWaterMark: 1 << 20 }),
    HEADERS,
    MAPPINGS,
    started ? { history: started.history } : {},
  );
  let bytes = 0;
  for await (const chunk of output) bytes += (chunk as Buffer).length;
  const s = await stats;
  const mapped = process.hrtime.bigint();
  const mappedMs = Number(mapped - start) / 1e6;
  if (store && started) {
    await store.complete(started.runId, started.mappingId, started.history.fresh, {
      rowsRead: s.rowsIn,
      rowsWritten: s.rowsOut,
      rowsAlreadyExported: s.alreadyExported ?? 0,
      rowsSkipped: 0,
      controlTotals: s.controlTotals,
    });
    storeMs = Number(process.hrtime.bigint() - mapped) / 1e6;
  }
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const rssMb = process.resourceUsage().maxRSS / 1024;
  console.log(
    JSON.stringify({
      variant,
      ms,
      loadMs,
      storeMs,
      readyMs,
      mappedMs,
      rows: s.rowsOut,
      bytes,
      alreadyExported: s.alreadyExported ?? null,
      rssMb,
      native: started ? started.history.isNative : null,
    }),
  );
  await ds?.destroy();
}

/** The history: `runs` earlier runs of `rows` random fingerprints each, packed by bucket. */
async function seed(ds: DataSource, ids: Ids, runs: number, rows: number): Promise<void> {
  for (let r = 0; r < runs; r++) {
    const [{ id: runId }] = (await ds.query(
      `INSERT INTO mapping_runs (mapping_id, team_id, user_id, source, state, rows_read, rows_written, created_at)
       VALUES ($1, $2, $2, 'api', 'completed', $3, $3, now() - make_interval(days => $4)) RETURNING id`,
      [ids.mappingId, ids.teamId, rows, (runs - r) * 30],
    )) as [{ id: string }];
    const per = Math.ceil(rows / BUCKETS);
    for (let b = 0; b < BUCKETS; b++) {
      const buf = randomBytes(per * 8);
      for (let i = 0; i < buf.length; i += 8) buf[i] = (b << 2) | (buf[i] & 3);
      await ds.query(
        `INSERT INTO mapping_fingerprints (mapping_id, run_id, bucket, count, fingerprints) VALUES ($1, $2, $3, $4, $5)`,
        [ids.mappingId, runId, b, per, buf],
      );
    }
  }
}

/** The measured variants, in the order each round runs them. */
const VARIANTS = ['plain', 'first', 'history', 'history-sync', 'first-js', 'history-js'] as const;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function parent(): Promise<void> {
  mkdirSync(DATA, { recursive: true });
  const ds = await connect();
  await runMigrations(DB_URL);
  const suffix = randomBytes(4).toString('hex');
  const [{ id: teamId }] = (await ds.query(
    `INSERT INTO users (username, email, password) VALUES ($1, $2, 'x') RETURNING id`,
    [`bench_${suffix}`, `bench_${suffix}@example.com`],
  )) as [{ id: string }];
  const mapping = async (id?: string) =>
    (
      (await ds.query(
        `INSERT INTO saved_mappings (${id ? 'id, ' : ''}user_id, team_id, name, template_headers, data_headers, mappings)
         VALUES (${id ? '$5, ' : ''}$1, $1, $2, $3, '[]', $4) RETURNING id`,
        [teamId, 'bench', JSON.stringify(HEADERS), JSON.stringify(MAPPINGS), ...(id ? [id] : [])],
      )) as [{ id: string }]
    )[0].id;
  const mappingId = await mapping();
  // The "first run" variant's mapping: the same id with another last digit (an empty history).
  const emptyId = emptyIdOf(mappingId);
  await mapping(emptyId);
  const ids: Ids = { teamId, mappingId };
  try {
    await generate(FILE, ROWS);
    const mb = statSync(FILE).size / 1e6;
    const t0 = Date.now();
    await seed(ds, ids, HISTORY_RUNS, ROWS);
    const [{ n, bytes }] = (await ds.query(
      `SELECT sum(count)::bigint AS n, sum(length(fingerprints))::bigint AS bytes FROM mapping_fingerprints WHERE mapping_id = $1`,
      [mappingId],
    )) as [{ n: string; bytes: string }];
    console.log(
      `file: ${ROWS} rows, ${mb.toFixed(0)} MB; history: ${HISTORY_RUNS} runs, ${Number(n)} fingerprints ` +
        `(${(Number(bytes) / 1e6).toFixed(0)} MB packed) written into the database in ${Date.now() - t0} ms; ` +
        `${RUNS} rounds (+1 warm-up), each variant in its own process`,
    );
    const results: Record<string, Array<Record<string, number>>> = {};
    for (const v of VARIANTS) results[v] = [];
    for (let round = 0; round <= RUNS; round++) {
      for (const variant of VARIANTS) {
        // `…-js`: the same child with the native fingerprint addon turned off (the JavaScript HMAC);
        // `…-sync`: with the addon's work on the main thread.
        const js = variant.endsWith('-js');
        const sync = variant.endsWith('-sync');
        const r = spawnSync(
          process.execPath,
          [
            // BENCH_PROFILE=<variant>: that child writes a CPU profile into bench/.data/profiles.
            ...(process.env.BENCH_PROFILE === variant
              ? ['--cpu-prof', `--cpu-prof-dir=${join(DATA, 'profiles')}`]
              : []),
            join(__dirname, 'support/run-ts.js'),
            __filename,
            '--child',
            variant.replace(/-(js|sync)$/, ''),
            JSON.stringify(ids),
          ],
          {
            encoding: 'utf8',
            env: {
              ...process.env,
              ...(js ? { CSVM_NATIVE_FINGERPRINTS: '0' } : {}),
              ...(sync ? { CSVM_NATIVE_ASYNC: '0' } : {}),
            },
            maxBuffer: 1 << 20,
          },
        );
        if (r.status !== 0) throw new Error(`${variant} failed: ${r.stderr}`);
        const line = JSON.parse(r.stdout.trim().split('\n').pop() as string) as Record<string, number>;
        // Only the 12 seeded runs stay: the measured runs are dropped (their fingerprints cascade).
        await ds.query(
          `DELETE FROM mapping_runs WHERE mapping_id IN ($1, $2) AND data_filename = 'history-bench.csv'`,
          [mappingId, emptyId],
        );
        if (round === 0) continue;
        results[variant].push(line);
        console.log(
          `round ${round} ${variant.padEnd(12)} ${line.ms.toFixed(0)} ms (start ${line.loadMs.toFixed(0)}, set ready at ${line.readyMs.toFixed(0)}, ` +
            `mapped at ${line.mappedMs.toFixed(0)}, store ${line.storeMs.toFixed(0)}), ` +
            `peak RSS ${line.rssMb.toFixed(0)} MB, rows ${line.rows}, already exported ${line.alreadyExported}` +
            (variant === 'plain' ? '' : `, fingerprints ${line.native ? 'native' : 'JavaScript'}`),
        );
      }
    }
    const med = (v: string, k: string) => median(results[v].map((r) => r[k]));
    const plain = med('plain', 'ms');
    for (const v of VARIANTS) {
      console.log(
        `${v.padEnd(12)} median ${med(v, 'ms').toFixed(0)} ms (load ${med(v, 'loadMs').toFixed(0)} ms, store ${med(v, 'storeMs').toFixed(0)} ms), ` +
          `peak RSS ${Math.max(...results[v].map((r) => r.rssMb)).toFixed(0)} MB, ratio to plain ${(med(v, 'ms') / plain).toFixed(2)}×`,
      );
    }
    console.log(
      `goal: history ≤ 1.20× plain → ${(med('history', 'ms') / plain).toFixed(2)}×; peak RSS ≤ 300 MB → ` +
        `${Math.max(...results.history.map((r) => r.rssMb)).toFixed(0)} MB`,
    );
  } finally {
    rmSync(FILE, { force: true });
    await ds.query(`DELETE FROM users WHERE id = $1`, [teamId]);
    await ds.destroy();
  }
}

if (process.argv[2] === '--child') {
  child(process.argv[3] as 'plain' | 'first' | 'history', JSON.parse(process.argv[4]) as Ids).catch(
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
} else {
  parent().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
