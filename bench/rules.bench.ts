// Template rules + combine bench (`npm run bench:rules`; never part of `npm test`). Issue 22's goal: a run
// with 3 column rules and a combine takes at most 1.3× the time of the same mapping without them.
// Generates the engine bench's 1,000,000-row file (BENCH_ROWS), then maps it in rounds (BENCH_RUNS,
// default 3) in this process, alternating the two mappings so a slow spell hits both alike; prints each
// one's median time, rows/s and the ratio (and, as a second figure, the process CPU time's), and in the
// untimed warm-up round each output's size and SHA-256. Data lives in bench/.data/ and is deleted afterwards.
import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { applyMapping, type ApplyOptions, type MappingPair } from '../libs/csv-engine/src';
import { generate } from './engine/generate';
import { NORMALISE_HEADERS, normalisePairs } from './support/normalise-job';

const DATA = join(__dirname, '.data');
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const HEADERS = NORMALISE_HEADERS;

/** The engine bench's `normalise` job: a date, an amount and four copies. */
const base = normalisePairs;

/** The same with a combine (Customer = name and city) and rules on three columns. */
function withRules(): { mappings: MappingPair[]; options: ApplyOptions } {
  const mappings = base();
  mappings[1] = {
    templateColumn: 'Customer',
    dataColumn: '',
    transform: { kind: 'combine', pattern: '{Customer Name} ({City})' },
  };
  return {
    mappings,
    options: {
      templateRules: {
        Amount: { type: 'amount' },
        Email: { required: true, type: 'email' },
        SKU: { required: true, maxLength: 40 },
      },
    },
  };
}

/** Maps `file`; `hash` (the untimed warm-up round): also a SHA-256 of the output, to compare runs by. */
async function time(file: string, mappings: MappingPair[], options: ApplyOptions, hash = false) {
  const h = hash ? createHash('sha256') : null;
  const start = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  const { output, stats } = applyMapping(
    createReadStream(file, { highWaterMark: 1 << 20 }),
    HEADERS,
    mappings,
    {
      ...options,
    },
  );
  let bytes = 0;
  for await (const chunk of output) {
    bytes += (chunk as Buffer).length;
    h?.update(chunk as Buffer);
  }
  const s = await stats;
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu0);
  const cpu = (used.user + used.system) / 1000;
  const sha = h === null ? '' : h.digest('hex').slice(0, 16);
  return { ms, cpu, rows: s.rowsOut, bytes, sha, warnings: s.warningCount, byRule: s.warningsByRule };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  mkdirSync(DATA, { recursive: true });
  const file = join(DATA, 'rules-bench.csv');
  try {
    await generate(file, ROWS);
    const mb = statSync(file).size / 1e6;
    console.log(`file: ${ROWS} rows, ${mb.toFixed(0)} MB; ${RUNS} rounds (+1 warm-up)`);
    const rules = withRules();
    const plain: number[] = [];
    const ruled: number[] = [];
    const plainCpu: number[] = [];
    const ruledCpu: number[] = [];
    let last: Awaited<ReturnType<typeof time>> | null = null;
    for (let round = 0; round <= RUNS; round++) {
      const a = await time(file, base(), {}, round === 0);
      const b = await time(file, rules.mappings, rules.options, round === 0);
      if (round === 0) {
        // warm-up, not timed: what each mapping wrote
        console.log(
          `output without: ${a.bytes} bytes, sha256 ${a.sha}…; with: ${b.bytes} bytes, sha256 ${b.sha}…`,
        );
        continue;
      }
      plain.push(a.ms);
      ruled.push(b.ms);
      plainCpu.push(a.cpu);
      ruledCpu.push(b.cpu);
      last = b;
      console.log(
        `round ${round}: without ${a.ms.toFixed(0)} ms (CPU ${a.cpu.toFixed(0)} ms), with rules + combine ${b.ms.toFixed(0)} ms (CPU ${b.cpu.toFixed(0)} ms)`,
      );
    }
    const p = median(plain);
    const r = median(ruled);
    const rate = (ms: number) =>
      `${((ROWS / ms) * 1000).toFixed(0)} rows/s, ${((mb / ms) * 1000).toFixed(1)} MB/s`;
    console.log(`without rules:          median ${p.toFixed(0)} ms (${rate(p)})`);
    console.log(`3 rules + a combine:    median ${r.toFixed(0)} ms (${rate(r)})`);
    console.log(
      `ratio: ${(r / p).toFixed(2)}× (goal ≤ 1.30×); warnings with rules: ${last?.warnings} ${JSON.stringify(last?.byRule)}`,
    );
    // Process CPU time (all threads): what the run costs whatever else the machine is doing meanwhile.
    const pc = median(plainCpu);
    const rc = median(ruledCpu);
    console.log(
      `CPU time: median ${pc.toFixed(0)} ms without, ${rc.toFixed(0)} ms with; ratio ${(rc / pc).toFixed(2)}×`,
    );
  } finally {
    rmSync(file, { force: true });
  }
}

void main();
