// Engine throughput bench (`npm run bench:engine`; never part of `npm test`).
// Generates a 1,000,000-row (~120 MB) 12-column file, reshapes it to 6 renamed columns in another order
// with and without date + amount normalisation, with our engine and with csv-parser, papaparse,
// csv-parse + csv-stringify, uDSV, d3-dsv (and Miller when installed), each in its own process so peak RSS
// is its own. Checks every output hash is identical and prints MB/s, rows/s, peak RSS and the ratio to ours.
// Then issue 31's reshape (the same with dates to YYYY-MM-DD, "iso") against a program on Rust's `csv` crate
// (bench/engine/rust-reshape, built offline from Debian's librust-csv-dev into bench/.data; its column is
// skipped with a line saying why when it cannot be built), in the same rounds: the engine in-process on 1
// and 2 threads and `csv-mapper run` end to end (the built tool, process start included), with the ratio
// to Rust's speed. Rust also runs the reshape and normalise jobs. Every output's sha256 is compared.
// Then streams a ~1 GB file through our engine to show memory stays flat. Data lives in bench/.data/ and is
// deleted afterwards. Env: BENCH_ROWS, BENCH_LIBS (comma list), BENCH_RUNS (rounds, default 3),
// BENCH_BIG_MB (0 skips the big file), BENCH_JOBS (default reshape,normalise,iso).
import { execFileSync, spawnSync } from 'node:child_process';
import {
  createReadStream,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, relative } from 'node:path';
import { cpus } from 'node:os';
import * as ts from 'typescript';
import { generate } from './engine/generate';
import { IMPLEMENTATIONS, OUTPUT_HEADERS, type Job } from './engine/jobs';
import { buildCli } from './support/build-cli';

interface Run {
  impl: string;
  job: Job;
  ms: number;
  rows: number;
  hash: string;
  rssMb: number;
  bytes: number;
  /** Hash the output must match when it is not ours' (Miller writes LF line ends: ours with LF). */
  refHash?: string;
}

const DATA = join(__dirname, '.data');
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const BIG_MB = Number(process.env.BENCH_BIG_MB ?? 1024);
const LIBS = (process.env.BENCH_LIBS ?? Object.keys(IMPLEMENTATIONS).join(',')).split(',');
/**
 * Rounds: every implementation runs once per round, rounds one after another, and the table shows each
 * one's median time (and its highest peak RSS), so a slow spell on a shared machine hits all of them alike
 * and one unlucky run does not decide a ratio.
 */
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));

const JOBS = (process.env.BENCH_JOBS ?? 'reshape,normalise,iso').split(',') as Job[];
/** The JavaScript libraries run reshape and normalise; issue 31's reshape (iso) is ours against Rust. */
const ISO_IMPLS = ['ours', 'ours (2 threads)'];

const ROOT = join(__dirname, '..');
const JS = join(DATA, 'js');
const RUST_DIR = join(__dirname, 'engine', 'rust-reshape');
const RUST_TARGET = join(DATA, 'rust-reshape');
const RUST_BIN = join(RUST_TARGET, 'release', 'rust-reshape');
const RUST = 'rust csv crate';

/** Builds the Rust reference (offline, Debian's crates: see its .cargo/config.toml); null when it cannot. */
function buildRust(): string | null {
  const r = spawnSync('cargo', ['build', '--release', '--offline', '--quiet', '--target-dir', RUST_TARGET], {
    cwd: RUST_DIR,
    encoding: 'utf8',
  });
  if (r.status === 0) return RUST_BIN;
  const why = r.error ? r.error.message : (r.stderr.trim().split('\n').pop() ?? `exit ${r.status}`);
  console.log(
    `  Rust column skipped: bench/engine/rust-reshape did not build (${why}). Needs cargo and Debian's librust-csv-dev (apt-get install -y librust-csv-dev).`,
  );
  return null;
}

function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256');
    createReadStream(path, { highWaterMark: 1 << 20 })
      .on('data', (c) => h.update(c))
      .on('error', reject)
      .on('end', () => resolve(h.digest('hex')));
  });
}

/** A whole process writing to a file: wall time, peak RSS (/usr/bin/time), the file's hash (not timed). */
async function runProcess(impl: string, job: Job, file: string, cmd: string[], out: string): Promise<Run> {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', ...cmd], { encoding: 'utf8', maxBuffer: 1 << 20 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${impl} ${job} failed: ${r.stderr}`);
  const rssKb = Number((r.stderr.trim().split('\n').pop() ?? '0').trim());
  const hash = await sha256File(out);
  rmSync(out, { force: true });
  return { impl, job, ms, rows: ROWS, hash, rssMb: rssKb / 1024, bytes: statSync(file).size };
}

function runRust(bin: string, job: Job, file: string): Promise<Run> {
  const out = join(DATA, `rust-${job}.csv`);
  return runProcess(RUST, job, file, [bin, job, file, out], out);
}

/** `csv-mapper run` as a person runs it (the built tool): issue 31's recipe, process start included. */
function runCli(bin: string, recipe: string, file: string, threads: number): Promise<Run> {
  const out = join(DATA, `cli-${threads}.csv`);
  const impl = `csv-mapper run${threads > 1 ? ' --threads 2' : ''} (end to end)`;
  const cmd = [
    process.execPath,
    bin,
    'run',
    '-q',
    '-r',
    recipe,
    file,
    '-o',
    out,
    '--threads',
    String(threads),
  ];
  return runProcess(impl, 'iso', file, cmd, out);
}

function writeIsoRecipe(path: string): void {
  const src = ['Booking Date', 'Customer Name', 'Betrag', 'E-mail', 'Article Number', 'Notes'];
  const mappings: Record<string, unknown>[] = OUTPUT_HEADERS.map((h, j) => ({
    templateColumn: h,
    dataColumn: src[j],
  }));
  mappings[0].transform = { kind: 'date', output: 'YYYY-MM-DD' };
  mappings[2].transform = { kind: 'amount' };
  writeFileSync(
    path,
    JSON.stringify({
      format: 'csv-mapper/recipe',
      version: 1,
      name: 'bench:engine (issue 31)',
      templateHeaders: OUTPUT_HEADERS,
      mappings,
      // As the in-process runs: comma, CRLF, UTF-8, no BOM (no template file to match).
      output: { matchTemplate: false },
    }),
  );
}

/**
 * Children run plain JavaScript: under ts-node the TypeScript compiler alone would add ~100 MB to every
 * process's peak RSS. So the engine and the jobs are transpiled once into bench/.data/js.
 */
function transpile(): void {
  // libs/rules: the engine imports the shared rules by path (libs/rules/src/…).
  const dirs = [
    join(ROOT, 'libs', 'csv-engine', 'src'),
    join(ROOT, 'libs', 'rules', 'src'),
    join(__dirname, 'engine'),
  ];
  for (const dir of dirs) {
    // Recursive: the engine has folders (mapping/, mapping/transforms/).
    for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!name.endsWith('.ts') || name.endsWith('.spec.ts')) continue;
      const src = join(dir, name);
      const out = join(JS, relative(ROOT, src)).replace(/\.ts$/, '.js');
      const js = ts.transpileModule(readFileSync(src, 'utf8'), {
        compilerOptions: {
          module: ts.ModuleKind.CommonJS,
          target: ts.ScriptTarget.ES2022,
          esModuleInterop: true,
        },
      }).outputText;
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, js);
    }
  }
}

function runChild(impl: string, job: Job, file: string): Run {
  const script = join(JS, 'bench', 'engine', 'run-one.js');
  const r = spawnSync(process.execPath, ['--max-old-space-size=4096', script, impl, job, file], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
    cwd: ROOT,
  });
  if (r.status !== 0) throw new Error(`${impl} ${job} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() as string) as Run;
}

function hasMiller(): boolean {
  try {
    execFileSync('mlr', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function runMiller(job: Job, file: string): Run {
  const rename = [
    'Booking Date,Transaction Date',
    'Customer Name,Customer',
    'Betrag,Amount',
    'E-mail,Email',
    'Article Number,SKU',
    'Notes,Note',
  ].join(',');
  const verbs = [
    'cut',
    '-o',
    '-f',
    'Booking Date,Customer Name,Betrag,E-mail,Article Number,Notes',
    'then',
    'rename',
    rename,
  ];
  if (job === 'normalise') {
    verbs.push(
      'then',
      'put',
      '${Transaction Date} = sub(${Transaction Date}, "^([0-9]{2})/([0-9]{2})/", "\\2/\\1/"); $Amount = sub(gsub($Amount, "\\.", ""), ",", ".")',
    );
  }
  const t0 = process.hrtime.bigint();
  const r = spawnSync(
    'bash',
    [
      '-c',
      `/usr/bin/time -f '%M' mlr --icsv --ocsv ${verbs.map((v) => `'${v.replace(/'/g, `'\\''`)}'`).join(' ')} < '${file}' | sha256sum`,
    ],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const rssKb = Number((r.stderr.trim().split('\n').pop() ?? '0').trim());
  return {
    impl: 'mlr',
    job,
    ms,
    rows: ROWS,
    hash: r.stdout.split(' ')[0],
    rssMb: rssKb / 1024,
    bytes: statSync(file).size,
  };
}

/** One row from several runs: median time, highest peak RSS; a hash that changed between runs shows. */
function combine(rs: Run[]): Run {
  const byTime = [...rs].sort((a, b) => a.ms - b.ms);
  const mid = byTime[Math.floor((byTime.length - 1) / 2)];
  const hash = rs.every((r) => r.hash === rs[0].hash) ? rs[0].hash : 'differs between runs';
  return { ...mid, hash, rssMb: Math.max(...rs.map((r) => r.rssMb)) };
}

function fmt(n: number, d = 1): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
}

const TITLES: Record<Job, string> = {
  reshape: 'Reshape: 6 renamed columns, new order',
  normalise: 'Reshape + normalise dates (DD/MM/YYYY → MM/DD/YYYY) and amounts (1.234,56 → 1234.56)',
  iso: "Issue 31's reshape: dates DD/MM/YYYY → YYYY-MM-DD, amounts 1.234,56 → 1234.56 (ours against Rust)",
};

function table(runs: Run[]): boolean {
  let ok = true;
  for (const job of JOBS) {
    const rs = runs.filter((r) => r.job === job);
    const ours = rs.find((r) => r.impl === 'ours');
    if (!ours) continue;
    const two = rs.find((r) => r.impl === 'ours (2 threads)');
    const rust = rs.find((r) => r.impl === RUST);
    console.log(`\n### ${TITLES[job]} — median of ${RUNS} run${RUNS === 1 ? '' : 's'}, highest peak RSS`);
    console.log(
      `| implementation | time s | MB/s | rows/s | peak RSS MB | × slower than ours |${two ? ' × slower than ours (2 threads) |' : ''}${rust ? " × Rust's speed |" : ''} output hash |`,
    );
    console.log(
      `| --- | ---: | ---: | ---: | ---: | ---: |${two ? ' ---: |' : ''}${rust ? ' ---: |' : ''} --- |`,
    );
    for (const r of rs) {
      const same = r.hash === (r.refHash ?? ours.hash);
      if (!same) ok = false;
      const mbs = r.bytes / 1e6 / (r.ms / 1000);
      console.log(
        `| ${r.impl} | ${fmt(r.ms / 1000, 2)} | ${fmt(mbs)} | ${fmt(r.rows / (r.ms / 1000), 0)} | ${fmt(r.rssMb, 0)} | ${fmt(r.ms / ours.ms, 2)} |${two ? ` ${fmt(r.ms / two.ms, 2)} |` : ''}${rust ? ` ${fmt(rust.ms / r.ms, 2)} |` : ''} ${r.hash.slice(0, 12)} ${same ? '✓ same' : '✗ DIFFERENT'} |`,
      );
    }
    if (job === 'iso' && rust) {
      const ratio = (impl: string): string => {
        const r = rs.find((x) => x.impl === impl);
        return r ? `${fmt(rust.ms / r.ms, 2)}×` : 'not run';
      };
      console.log(
        `\nAgainst Rust's csv crate (same rounds, output sha256 ${ours.hash.slice(0, 16)}): in-process engine ${ratio('ours')} Rust's speed on 1 thread (goal ≥ 1.0×), ${ratio('ours (2 threads)')} on 2 threads (goal ≥ 1.6×); csv-mapper run end to end ${ratio('csv-mapper run (end to end)')} (goal ≥ 0.9×), with --threads 2 ${ratio('csv-mapper run --threads 2 (end to end)')}.`,
      );
    }
  }
  return ok;
}

async function main(): Promise<void> {
  mkdirSync(DATA, { recursive: true });
  transpile();
  const file = join(DATA, `engine-${ROWS}.csv`);
  try {
    console.log(`Generating ${ROWS.toLocaleString('en-US')} rows…`);
    const g = await generate(file, ROWS);
    console.log(
      `${file}: ${fmt(g.bytes / 1e6)} MB, 12 columns (node ${process.version}, ${cpus().length} cores)`,
    );
    const runs: Run[] = [];
    const miller = hasMiller();
    if (!miller) console.log('  mlr (Miller) is not installed: skipped');
    const rust = buildRust();
    const recipe = join(DATA, 'iso-recipe.json');
    writeIsoRecipe(recipe);
    const cli = JOBS.includes('iso') ? buildCli(ROOT, join(DATA, 'cli')) : '';
    for (const job of JOBS) {
      const samples = new Map<string, Run[]>();
      const iso = job === 'iso';
      const refHash = miller && !iso ? runChild('ours-lf', job, file).hash : '';
      const impls = iso
        ? [...ISO_IMPLS.filter((i) => LIBS.includes(i)), 'cli', 'cli2']
        : [...LIBS, ...(miller ? ['mlr'] : [])];
      if (rust) impls.push('rust');
      for (let round = 1; round <= RUNS; round++) {
        const line: string[] = [];
        for (const impl of impls) {
          const r =
            impl === 'mlr'
              ? { ...runMiller(job, file), refHash }
              : impl === 'rust'
                ? await runRust(rust as string, job, file)
                : impl === 'cli' || impl === 'cli2'
                  ? await runCli(cli, recipe, file, impl === 'cli' ? 1 : 2)
                  : runChild(impl, job, file);
          samples.set(r.impl, [...(samples.get(r.impl) ?? []), r]);
          line.push(`${r.impl} ${fmt(r.ms / 1000, 2)} s`);
        }
        console.log(`  ${job}, round ${round}/${RUNS}: ${line.join(', ')}`);
      }
      for (const rs of samples.values()) runs.push(combine(rs));
    }
    const same = table(runs);
    console.log(same ? '\nAll output hashes are identical.' : '\nWARNING: some outputs differ from ours.');
  } finally {
    rmSync(file, { force: true });
  }

  if (BIG_MB > 0) {
    const big = join(DATA, 'engine-1gb.csv');
    try {
      console.log(`\nGenerating a ~${BIG_MB} MB file on the fly…`);
      const g = await generate(big, Infinity, BIG_MB * 1024 * 1024);
      for (const impl of ['ours', 'ours (2 threads)'].filter((i) => LIBS.includes(i))) {
        const r = runChild(impl, 'normalise', big);
        console.log(
          `Big file, ${impl} (normalise): ${fmt(g.bytes / 1e6, 0)} MB, ${g.rows.toLocaleString('en-US')} rows in ${fmt(r.ms / 1000, 2)} s = ${fmt(g.bytes / 1e6 / (r.ms / 1000))} MB/s, peak RSS ${fmt(r.rssMb, 0)} MB`,
        );
      }
    } finally {
      rmSync(big, { force: true });
    }
  }
  rmSync(JS, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
