// One measured run of the xlsx bench, in its own process so its peak RSS is its own.
// Usage: run-ts.js bench/xlsx/run-one.ts <ours|exceljs|csv> <file>
import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import { applyMapping, workbookCsv, type MappingPair } from '@csv-mapper/csv-engine';
import { COLUMNS } from './columns';

const [impl, file] = process.argv.slice(2);
const pairs: MappingPair[] = COLUMNS.map((c) => ({ templateColumn: c, dataColumn: c }));

async function mapped(
  input: AsyncIterable<Buffer> | NodeJS.ReadableStream,
  headerRow: number,
): Promise<{ rows: number; hash: string }> {
  const hash = createHash('sha256');
  const { output, stats } = applyMapping(input as AsyncIterable<Buffer>, COLUMNS, pairs, {
    input: { encoding: 'utf-8', delimiter: ',', headerRow },
  });
  for await (const c of output) hash.update(c as Buffer);
  return { rows: (await stats).rowsOut, hash: hash.digest('hex') };
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let result: { rows: number; hash: string };
  if (impl === 'ours') {
    result = await mapped(
      workbookCsv(() => createReadStream(file, { highWaterMark: 512 * 1024 }), { sheet: 'Data' }),
      1,
    );
  } else if (impl === 'csv') {
    result = await mapped(createReadStream(file, { highWaterMark: 512 * 1024 }), 1);
  } else {
    // exceljs' streaming reader, values only (no mapping): a lower bound for what it would cost.
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
      sharedStrings: 'cache',
      styles: 'cache',
      worksheets: 'emit',
      hyperlinks: 'ignore',
      entries: 'ignore',
    });
    let rows = 0;
    const hash = createHash('sha256');
    for await (const ws of reader) {
      for await (const row of ws) {
        rows++;
        hash.update(String((row as ExcelJS.Row).values));
      }
    }
    result = { rows: rows - 1, hash: hash.digest('hex') };
  }
  const ms = performance.now() - t0;
  // CPU time (all threads, zlib's included): on a shared, loaded machine it says more than wall time.
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
  const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  console.log(JSON.stringify({ impl, ms: Math.round(ms), cpuMs, ...result, rssMb }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
