// XLSX source bench (`npm run bench:xlsx`; never part of `npm test`).
// Writes a 1,000,000-row × 12-column workbook (exceljs' streaming writer) and the same data as CSV, then
// maps each through the engine in its own process: our workbook reader → the CSV pipeline, the CSV file
// itself, and exceljs' streaming WorkbookReader (rows read only, no mapping) for comparison. Prints
// rows/s and peak RSS. Goal: ≤ 300 MB RSS and within 5× the CSV time. Env: BENCH_ROWS, BENCH_RUNS,
// BENCH_IMPLS (csv,ours,exceljs; `base` is ours from another checkout, BENCH_BASE=<its root>, for a
// before/after in one run), BENCH_NODE_FLAGS (e.g. "--max-old-space-size=160": V8 otherwise lets the
// heap grow lazily with garbage, which shows as RSS). Ratios are of medians (BENCH_RUNS=5 for issue 31).
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { COLUMNS } from './xlsx/columns';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
const DATA = join(__dirname, '.data');
const ROOT = join(__dirname, '..');

function row(i: number): (string | number | boolean | Date)[] {
  return [
    new Date(Date.UTC(2024, 0, 1 + (i % 365))),
    `INV-${100000 + i}`,
    `Customer ${i % 5000}`,
    `user${i % 9000}@example.com`,
    `SKU-${i % 700}`,
    (i % 17) + 1,
    Math.round(((i * 37) % 100000) + 1) / 100,
    Math.round(((i * 53) % 1000000) + 1) / 100,
    0.2,
    i % 3 === 0,
    ['GB', 'DE', 'FR', 'NL'][i % 4],
    i % 10 === 0 ? 'Refund, partial' : 'ok',
  ];
}

function csvCell(v: string | number | boolean | Date): string {
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

async function generate(xlsx: string, csv: string): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: xlsx,
    useSharedStrings: true,
    useStyles: true,
  });
  const ws = wb.addWorksheet('Data');
  ws.getColumn(1).numFmt = 'yyyy-mm-dd';
  ws.addRow(COLUMNS).commit();
  const out = createWriteStream(csv);
  out.write(COLUMNS.join(',') + '\n');
  for (let i = 0; i < ROWS; i++) {
    const r = row(i);
    ws.addRow(r).commit();
    if (!out.write(r.map(csvCell).join(',') + '\n')) await once(out, 'drain');
  }
  ws.commit();
  await wb.commit();
  out.end();
  await once(out, 'finish');
}

function run(
  impl: string,
  file: string,
): { impl: string; ms: number; cpuMs: number; rows: number; hash: string; rssMb: number } {
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const root = impl === 'base' ? (process.env.BENCH_BASE as string) : ROOT;
  const r = spawnSync(
    process.execPath,
    [
      ...flags,
      join(root, 'bench', 'support', 'run-ts.js'),
      'bench/xlsx/run-one.ts',
      impl === 'base' ? 'ours' : impl,
      file,
    ],
    {
      encoding: 'utf8',
      cwd: root,
      maxBuffer: 1 << 20,
    },
  );
  if (r.status !== 0) throw new Error(`${impl} failed: ${r.stderr}`);
  return { ...JSON.parse(r.stdout.trim().split('\n').pop() as string), impl };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  mkdirSync(DATA, { recursive: true });
  const xlsx = join(DATA, `xlsx-${ROWS}.xlsx`);
  const csv = join(DATA, `xlsx-${ROWS}.csv`);
  if (!existsSync(xlsx) || !existsSync(csv)) {
    console.log(`writing ${ROWS} rows × ${COLUMNS.length} columns as .xlsx and .csv…`);
    await generate(xlsx, csv);
  }
  console.log(
    `xlsx ${(statSync(xlsx).size / 1048576).toFixed(1)} MB, csv ${(statSync(csv).size / 1048576).toFixed(1)} MB`,
  );
  const impls = (process.env.BENCH_IMPLS ?? 'csv,ours,exceljs').split(',');
  if (impls.includes('base') && !process.env.BENCH_BASE) throw new Error('base needs BENCH_BASE');
  const results = [];
  for (let k = 0; k < RUNS; k++)
    for (const impl of impls) results.push(run(impl, impl === 'csv' ? csv : xlsx));
  const csvRuns = results.filter((r) => r.impl === 'csv');
  const csvMs = Math.min(...csvRuns.map((r) => r.ms));
  const csvCpu = Math.min(...csvRuns.map((r) => r.cpuMs));
  const csvRun = csvRuns[0];
  console.log('impl       wall s   cpu s   rows/s (wall)  peak RSS MB  output sha256');
  for (const r of results) {
    console.log(
      [
        r.impl.padEnd(10),
        (r.ms / 1000).toFixed(1).padStart(6),
        (r.cpuMs / 1000).toFixed(1).padStart(7),
        String(Math.round((r.rows / r.ms) * 1000)).padStart(14),
        String(r.rssMb).padStart(12),
        ' ' + r.hash.slice(0, 16),
      ].join(' '),
    );
  }
  const csvMedian = median(csvRuns.map((r) => r.ms));
  const csvCpuMedian = median(csvRuns.map((r) => r.cpuMs));
  for (const impl of impls.filter((i) => i === 'ours' || i === 'base')) {
    const runs = results.filter((r) => r.impl === impl);
    if (runs.length === 0 || !csvRun) continue;
    const best = Math.min(...runs.map((r) => r.ms));
    const bestCpu = Math.min(...runs.map((r) => r.cpuMs));
    const peak = Math.max(...runs.map((r) => r.rssMb));
    const med = median(runs.map((r) => r.ms));
    const medCpu = median(runs.map((r) => r.cpuMs));
    console.log(
      `${impl} vs CSV: medians ${(med / csvMedian).toFixed(2)}× the wall time, ${(medCpu / csvCpuMedian).toFixed(2)}× the CPU time (goal ≤ 5×); best runs ${(best / csvMs).toFixed(2)}× wall, ${(bestCpu / csvCpu).toFixed(2)}× CPU; peak RSS ${peak} MB (goal ≤ 300 MB)`,
    );
    console.log(`${impl}: same output bytes as the CSV: ${runs.every((r) => r.hash === csvRun.hash)}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
