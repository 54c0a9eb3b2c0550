// `npm run bench:cli` (never part of npm test; run `npm run build:server` first to time the built tool).
// The bench:jobs file (1,000,000 rows, ~120 MB, same mappings) through the command-line tool as a person
// runs it (a separate process, start-up included), next to the engine path the worker runs for a job
// (the stored file streamed through applyMapping into the result, here file to file), on 1 and 2 threads.
// Both must write the same bytes.
import { spawnSync } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createHash } from 'node:crypto';
import { applyMapping, inspect, resolveOutputOptions, writeOptionsOf } from '@csv-mapper/csv-engine';
import { generate } from './engine/generate';

const MAPPINGS = [
  {
    templateColumn: 'Transaction Date',
    dataColumn: 'Booking Date',
    transform: { kind: 'date' as const, input: 'DD/MM/YYYY', output: 'MM/DD/YYYY' },
  },
  { templateColumn: 'Customer', dataColumn: 'Customer Name' },
  {
    templateColumn: 'Amount',
    dataColumn: 'Betrag',
    transform: { kind: 'number' as const, decimalSeparator: ',' as const },
  },
  { templateColumn: 'Email', dataColumn: 'E-mail' },
  { templateColumn: 'SKU', dataColumn: 'Article Number' },
  { templateColumn: 'Note', dataColumn: 'Notes' },
];
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

function cliRun(recipe: string, data: string, out: string, threads: number): number {
  const bin = resolve(__dirname, '../apps/cli/bin/csv-mapper.js');
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

async function main(): Promise<void> {
  const dir = tmpdir();
  const data = join(dir, `csvm-cli-bench-${process.pid}.csv`);
  const recipe = join(dir, `csvm-cli-bench-${process.pid}.json`);
  const outs: string[] = [];
  try {
    const gen = await generate(data, ROWS);
    const mb = gen.bytes / 1e6;
    console.log(`generated ${gen.rows.toLocaleString()} rows, ${mb.toFixed(1)} MB`);
    writeFileSync(
      recipe,
      JSON.stringify({
        format: 'csv-mapper/recipe',
        version: 1,
        name: 'bench',
        templateHeaders: TEMPLATE,
        mappings: MAPPINGS,
      }),
    );
    const built = existsSync(resolve(__dirname, '../dist/apps/cli/src/main.js'));
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
        `csv-mapper (${built ? 'built' : 'from sources'}), ${threads} thread${threads > 1 ? 's' : ''}, process start included`,
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
