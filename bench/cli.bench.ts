// `npm run bench:cli` (never part of npm test).
// 1. Start-up: `csv-mapper run` on a 3-line file against bare `node -e 0`, alternately, BENCH_STARTUP_RUNS
//    times (default 15): the medians and the start-up over bare Node. The tool is timed as built: the bench
//    compiles apps/cli and the libraries into bench/.data/cli (swc, CommonJS, as `npm run build:server`
//    lays out dist/) and runs the bin there; BENCH_CLI_SOURCES=<checkout> times another checkout's tool
//    the same way (a before/after in one session). From the sources (swc on load) is timed too.
// 2. The bench:jobs file (1,000,000 rows, ~120 MB, same mappings) through the command-line tool as a person
//    runs it (a separate process, start-up included), next to the engine path the worker runs for a job
//    (the stored file streamed through applyMapping into the result, here file to file), on 1 and 2 threads.
//    Both must write the same bytes. BENCH_ROWS=0 skips this part.
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createHash } from 'node:crypto';
import { applyMapping, inspect, resolveOutputOptions, writeOptionsOf } from '@csv-mapper/csv-engine';
import { BENCH_MAPPINGS, generate } from './engine/generate';
import { buildCli } from './support/build-cli';

const MAPPINGS = BENCH_MAPPINGS;
const TEMPLATE = MAPPINGS.map((m) => m.templateColumn);
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);

function hashOf(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16);
}

async function workerPath(data: string, out: string, threads: number): Promise<number> {
  // As the api queues it: reading options from the upload's inspection, output resolved (no template file
  // format here: the recipe's defaults), then the worker's applyMapping call.
  const t0 = performance.now();
  const inspected = await inspect(createReadStream(data, { highWaterMark: 1 << 20 }));
  const t1 = performance.now();
  const { output } = applyMapping(createReadStream(data, { highWaterMark: 1 << 20 }), TEMPLATE, MAPPINGS, {
    input: { encoding: inspected.encoding, headerRow: inspected.headerRow },
    ...writeOptionsOf(resolveOutputOptions({}, null)),
    threads,
  });
  await pipeline(output, createWriteStream(out));
  const t2 = performance.now();
  console.log(
    `  (upload inspection ${((t1 - t0) / 1000).toFixed(1)} s, not counted: the api does it at upload)`,
  );
  return (t2 - t1) / 1000;
}

const ROOT = resolve(__dirname, '..');
const BUILT = join(__dirname, '.data', 'cli');
const STARTUP_RUNS = Math.max(10, Number(process.env.BENCH_STARTUP_RUNS ?? 15));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function timeMs(args: string[], env: NodeJS.ProcessEnv = process.env): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  return performance.now() - t0;
}

/** `csv-mapper run` on a 3-line file against `node -e 0`, alternately; medians in ms. */
function startup(dir: string): void {
  const from = resolve(process.env.BENCH_CLI_SOURCES ?? ROOT);
  const bin = buildCli(from, BUILT);
  const small = join(dir, `csvm-cli-startup-${process.pid}.csv`);
  const recipe = join(dir, `csvm-cli-startup-${process.pid}.json`);
  const out = join(dir, `csvm-cli-startup-out-${process.pid}.csv`);
  writeFileSync(
    small,
    'Customer ID,Customer Name,E-mail,Phone,City,Country,Article Number,Category,Booking Date,Betrag,Quantity,Notes\r\n' +
      '1,"Müller, Anna",anna.1@ex.com,+44 20 7001 1001,Berlin,DE,A123456,Hardware,03/04/2021,"1.234,56",3,Paid by card\r\n' +
      '2,Ben Smith,ben.2@ex.com,+44 20 7002 1002,London,GB,A654321,Software,28/12/2020,"-12,50",1,\r\n',
  );
  writeFileSync(recipe, JSON.stringify(RECIPE));
  const run = ['run', '-q', '-r', recipe, small, '-o', out];
  const sources = { ...process.env, CSV_MAPPER_FROM_SOURCES: '1' };
  const srcBin = join(from, 'apps/cli/bin/csv-mapper.js');
  try {
    // Warm the page cache (and swc's binding) once.
    timeMs(['-e', '0']);
    timeMs([bin, ...run]);
    timeMs([srcBin, ...run], sources);
    const bare: number[] = [];
    const built: number[] = [];
    const fromSources: number[] = [];
    for (let i = 0; i < STARTUP_RUNS; i++) {
      bare.push(timeMs(['-e', '0']));
      built.push(timeMs([bin, ...run]));
      fromSources.push(timeMs([srcBin, ...run], sources));
    }
    const b = median(bare);
    console.log(
      `\nStart-up (${from === ROOT ? 'this checkout' : from}; 3-line file, median of ${STARTUP_RUNS}, alternating; node ${process.version}):`,
    );
    console.table({
      'node -e 0': { 'median ms': b.toFixed(0), 'over bare Node ms': '—' },
      'csv-mapper run (built)': {
        'median ms': median(built).toFixed(0),
        'over bare Node ms': (median(built) - b).toFixed(0),
      },
      'csv-mapper run (from sources, swc on load)': {
        'median ms': median(fromSources).toFixed(0),
        'over bare Node ms': (median(fromSources) - b).toFixed(0),
      },
    });
    console.log(`Start-up over bare Node (built): ${(median(built) - b).toFixed(0)} ms`);
  } finally {
    for (const f of [small, recipe, out]) rmSync(f, { force: true });
  }
}

function cliRun(recipe: string, data: string, out: string, threads: number): number {
  const bin = join(BUILT, 'apps/cli/bin/csv-mapper.js');
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    [bin, 'run', '-q', '-r', recipe, data, '-o', out, '--threads', String(threads)],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  if (r.status !== 0) throw new Error(`csv-mapper exited with ${r.status}`);
  return (performance.now() - t0) / 1000;
}

const RECIPE = {
  format: 'csv-mapper/recipe',
  version: 1,
  name: 'bench',
  templateHeaders: TEMPLATE,
  mappings: MAPPINGS,
};

async function main(): Promise<void> {
  const dir = tmpdir();
  startup(dir);
  if (ROWS === 0) return;
  const data = join(dir, `csvm-cli-bench-${process.pid}.csv`);
  const recipe = join(dir, `csvm-cli-bench-${process.pid}.json`);
  const outs: string[] = [];
  try {
    const gen = await generate(data, ROWS);
    const mb = gen.bytes / 1e6;
    console.log(`generated ${gen.rows.toLocaleString()} rows, ${mb.toFixed(1)} MB`);
    writeFileSync(recipe, JSON.stringify(RECIPE));
    const results: Record<string, { seconds: string; 'rows/s': string; 'MB/s': string; sha256: string }> = {};
    const record = (name: string, seconds: number, out: string) => {
      results[name] = {
        seconds: seconds.toFixed(2),
        'rows/s': Math.round(gen.rows / seconds).toLocaleString(),
        'MB/s': (mb / seconds).toFixed(1),
        sha256: `${hashOf(out)} (${(statSync(out).size / 1e6).toFixed(1)} MB)`,
      };
    };
    for (const threads of [1, 2]) {
      const wOut = join(dir, `csvm-cli-bench-worker-${threads}-${process.pid}.csv`);
      const cOut = join(dir, `csvm-cli-bench-cli-${threads}-${process.pid}.csv`);
      outs.push(wOut, cOut);
      record(
        `worker engine path, ${threads} thread${threads > 1 ? 's' : ''}`,
        await workerPath(data, wOut, threads),
        wOut,
      );
      record(
        `csv-mapper (built), ${threads} thread${threads > 1 ? 's' : ''}, process start included`,
        cliRun(recipe, data, cOut, threads),
        cOut,
      );
    }
    console.table(results);
    const hashes = new Set(Object.values(results).map((r) => r.sha256));
    if (hashes.size !== 1) throw new Error('The runs wrote different bytes.');
    console.log('All runs wrote the same bytes.');
  } finally {
    for (const f of [data, recipe, ...outs]) rmSync(f, { force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
