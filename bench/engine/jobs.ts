// The bench jobs, one implementation per library. Every implementation produces the same bytes:
// 6 renamed columns in another order, RFC 4180 with CRLF, quotes only where needed.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createHash, type Hash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { applyMapping, type MappingPair } from '../../libs/csv-engine/src';

export const OUTPUT_HEADERS = ['Transaction Date', 'Customer', 'Amount', 'Email', 'SKU', 'Note'];
/** Source column index for each output column. */
const SRC = [8, 1, 9, 2, 6, 11];
const SRC_NAMES = ['Booking Date', 'Customer Name', 'Betrag', 'E-mail', 'Article Number', 'Notes'];

/**
 * reshape: 6 renamed columns, new order; normalise: + dates DD/MM/YYYY → MM/DD/YYYY and amounts
 * 1.234,56 → 1234.56; iso: the same with dates to YYYY-MM-DD (issue 31's reshape, timed against Rust).
 */
export type Job = 'reshape' | 'normalise' | 'iso';
export interface JobResult {
  hash: string;
  rows: number;
}

const CHUNK = 1 << 20;

function quote(v: string): string {
  return /[",\r\n]/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v;
}

function normDate(s: string, job: Job = 'normalise'): string {
  // DD/MM/YYYY → MM/DD/YYYY, or YYYY-MM-DD for iso
  if (job === 'iso') return s.slice(6) + '-' + s.slice(3, 5) + '-' + s.slice(0, 2);
  return s.slice(3, 5) + '/' + s.slice(0, 2) + '/' + s.slice(6);
}
function normAmount(s: string): string {
  return s.replace(/\./g, '').replace(',', '.');
}

/** Reshapes one parsed record (all fields as strings) into an output line. */
function line(f: string[], job: Job): string {
  const out = new Array<string>(6);
  for (let j = 0; j < 6; j++) {
    let v = f[SRC[j]] ?? '';
    if (job !== 'reshape') {
      if (j === 0) v = normDate(v, job);
      else if (j === 2) v = normAmount(v);
    }
    out[j] = quote(v);
  }
  return out.join(',') + '\r\n';
}

/** Buffers output lines into ~1 MB strings before hashing (hashing per line would dominate). */
class Out {
  private parts: string[] = [];
  private size = 0;
  rows = 0;
  constructor(private readonly h: Hash) {
    this.add(OUTPUT_HEADERS.join(',') + '\r\n');
  }
  add(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    if (this.size > CHUNK) this.flush();
  }
  row(s: string): void {
    this.rows++;
    this.add(s);
  }
  flush(): void {
    this.h.update(this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }
  done(): JobResult {
    this.flush();
    return { hash: this.h.digest('hex'), rows: this.rows };
  }
}

/** Our engine: one thread (the default), or two (ApplyOptions.threads: a worker thread maps part of each chunk). */
export async function ours(
  file: string,
  job: Job,
  lineEnding: '\r\n' | '\n' = '\r\n',
  threads = 1,
): Promise<JobResult> {
  const mappings: MappingPair[] = OUTPUT_HEADERS.map((h, j) => ({
    templateColumn: h,
    dataColumn: SRC_NAMES[j],
  }));
  if (job !== 'reshape') {
    mappings[0].transform = { kind: 'date', output: job === 'iso' ? 'YYYY-MM-DD' : 'MM/DD/YYYY' };
    mappings[2].transform = { kind: 'amount' };
  }
  const { output, stats } = applyMapping(
    createReadStream(file, { highWaterMark: CHUNK }),
    OUTPUT_HEADERS,
    mappings,
    { lineEnding, threads },
  );
  const h = createHash('sha256');
  for await (const chunk of output) h.update(chunk as Buffer);
  const s = await stats;
  if (s.warningCount > 0)
    throw new Error(`ours: ${s.warningCount} warnings, first ${JSON.stringify(s.warnings[0])}`);
  return { hash: h.digest('hex'), rows: s.rowsOut };
}

export async function csvParser(file: string, job: Job): Promise<JobResult> {
  const { default: csv } = await import('csv-parser');
  const out = new Out(createHash('sha256'));
  // headers: false → arrays keyed 0..n; skip the header record ourselves (csv-parser would keep a BOM in it).
  const stream = createReadStream(file, { highWaterMark: CHUNK }).pipe(csv({ headers: false, skipLines: 1 }));
  for await (const rec of stream) {
    const o = rec as Record<string, string>;
    const f: string[] = [];
    for (let k = 0; k < 12; k++) f.push(o[k]);
    out.row(line(f, job));
  }
  return out.done();
}

export async function papaparse(file: string, job: Job): Promise<JobResult> {
  const Papa = (await import('papaparse')).default;
  const out = new Out(createHash('sha256'));
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, { header: false, skipEmptyLines: true });
  const stream = createReadStream(file, { highWaterMark: CHUNK }).pipe(parser);
  let first = true;
  for await (const rec of stream) {
    if (first) {
      first = false;
      continue;
    }
    out.row(line(rec as string[], job));
  }
  return out.done();
}

export async function csvParseStringify(file: string, job: Job): Promise<JobResult> {
  const { parse } = await import('csv-parse');
  const { stringify } = await import('csv-stringify');
  const h = createHash('sha256');
  const parser = createReadStream(file, { highWaterMark: CHUNK }).pipe(
    parse({ from_line: 2, skip_empty_lines: true }),
  );
  // quote_record_delimiter: with a CRLF record delimiter csv-stringify would leave fields with a bare LF unquoted.
  const stringifier = stringify({
    record_delimiter: '\r\n',
    quote_record_delimiter: true,
    header: true,
    columns: OUTPUT_HEADERS,
  });
  let rows = 0;
  const done = (async () => {
    for await (const chunk of stringifier) h.update(chunk as Buffer);
  })();
  for await (const rec of parser) {
    const f = rec as string[];
    const o = SRC.map((k, j) =>
      job !== 'reshape' && j === 0
        ? normDate(f[k], job)
        : job !== 'reshape' && j === 2
          ? normAmount(f[k])
          : f[k],
    );
    rows++;
    if (!stringifier.write(o)) await new Promise((r) => stringifier.once('drain', r));
  }
  stringifier.end();
  await done;
  return { hash: h.digest('hex'), rows };
}

export async function udsv(file: string, job: Job): Promise<JobResult> {
  const { inferSchema, initParser } = await import('udsv');
  const out = new Out(createHash('sha256'));
  const dec = new StringDecoder('utf8');
  let parser: ReturnType<typeof initParser> | null = null;
  const onRow = (f: string[]): void => out.row(line(f, job));
  for await (const buf of createReadStream(file, { highWaterMark: CHUNK })) {
    const str = dec.write(buf as Buffer);
    parser ??= initParser(inferSchema(str, { col: ',', row: '\r\n', encl: '"' }));
    parser.chunk(str, parser.stringArrs as never, onRow as never);
  }
  parser?.end();
  return out.done();
}

export async function d3dsv(file: string, job: Job): Promise<JobResult> {
  const { csvParseRows } = await import('d3-dsv');
  const out = new Out(createHash('sha256'));
  const text = await readFile(file, 'utf8');
  let first = true;
  csvParseRows(text, (f) => {
    if (first) {
      first = false;
      return null;
    }
    if (f.length === 1 && f[0] === '') return null;
    out.row(line(f, job));
    return null;
  });
  return out.done();
}

export const IMPLEMENTATIONS: Record<string, (file: string, job: Job) => Promise<JobResult>> = {
  ours,
  'ours (2 threads)': (file, job) => ours(file, job, '\r\n', 2),
  'csv-parser': csvParser,
  papaparse,
  'csv-parse+stringify': csvParseStringify,
  uDSV: udsv,
  'd3-dsv': d3dsv,
};

/** Reference outputs for tools that cannot write CRLF (Miller 6 always writes LF line ends). */
export const REFERENCES: Record<string, (file: string, job: Job) => Promise<JobResult>> = {
  'ours-lf': (file, job) => ours(file, job, '\n'),
};
