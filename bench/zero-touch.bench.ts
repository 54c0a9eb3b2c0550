// Zero-touch bench (`npm run bench:zero-touch`; never part of `npm test`). Issue 27's goals: with the
// product's own suggestions left unchanged, ≥ 90 % of template columns right on real exports, every run
// accepted, bank rows right ≥ 90 %, and a suggestion for a 60-column file against a 40-column template in
// ≤ 50 ms.
//
// Per file and template of bench/corpus/zero-touch/expected.json (contact and product exports in
// zero-touch/files, bank exports in reading/files) it runs the real flow through a booted api (own database
// and Redis prefix, sources run as they are): POST /api/upload (template and data) → POST
// /api/mappings/suggest → POST /api/process with the suggested pairs (confidence and reason dropped) and
// unmappedColumns "empty". A template column is right when its output values equal the expected source's
// values on every row (read from the data file with csv-parse, never with our engine): trimmed, letter case
// aside, numbers equal to the output's decimals, 1/0/yes/no/true/false alike, combined columns joined with a
// space or ", "; an expected-empty column must be empty on every row; bank Date and Amount must equal
// bench/corpus/reading/expected.json's rows (ISO date, or MM/DD/YYYY where the template asks for it), matched
// in order as bench:reading does (records that are no transaction may be kept or dropped).
// Always exits 0: it is a measurement. BENCH_VERBOSE=1 prints every wrong column with its first difference.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import {
  findBuiltInTemplate,
  suggestColumnMappings,
  templateHeaders,
  VIRTUAL_TEMPLATE_PREFIX,
} from '../libs/domain/src';
import { startStack, type Stack } from './support/stack';

const CORPUS = join(__dirname, 'corpus');
const VERBOSE = process.env.BENCH_VERBOSE === '1';
const GOALS = { columns: 90, bankRows: 90, suggestMs: 50 };
const LATENCY_RUNS = 20;
/** Output rows an expected bank transaction may be found ahead of the cursor (as bench:reading). */
const LOOKAHEAD = 3;

/** One source of an expected value (see expected.json's "about"). */
type Plain =
  string | string[] | { firstOf: string[] } | { slugOf: string } | { expectedRows: 'date' | 'amount' };
type Source = Plain | null | { anyOf: Plain[] };

interface ExpectedColumn {
  column: string;
  source: Source;
  reason: string;
}

interface TemplateRef {
  /** A built-in template's id. */
  id?: string;
  /** An uploaded template: its name and headers. */
  name?: string;
  headers?: string[];
}

interface ExpectedFile {
  file: string;
  dir: 'zero-touch' | 'reading';
  kind: 'contact' | 'product' | 'bank';
  /** 1: in the corpus when the suggester's lexicon was written; 2: added afterwards (held out). */
  batch?: number;
  headerRow?: number;
  delimiter?: string;
  encoding?: string;
  templates: { template: TemplateRef; columns: ExpectedColumn[] }[];
}

interface ReadingFile {
  file: string;
  headerRow: number;
  dateColumn?: string;
  delimiter: string;
  encoding: string;
  rows?: { date: string; amount: string }[];
}

interface SuggestedPair {
  templateColumn: string;
  dataColumn?: string;
  transform?: unknown;
  empty?: boolean;
  confidence?: number;
  reason?: string;
}

interface RunResult {
  file: string;
  kind: string;
  batch: number;
  template: string;
  accepted: boolean;
  status: string;
  right: number;
  columns: number;
  rowsRight?: number;
  rows?: number;
  wrong: string[];
}

// ---------- reading the data file (csv-parse, not our engine) ----------

function decode(bytes: Buffer, encoding: string): string {
  const text = new TextDecoder(encoding === 'utf-8' ? 'utf-8' : encoding).decode(bytes);
  return text.replace(/^\uFEFF/, '');
}

function parseCsv(text: string, delimiter: string): string[][] {
  return parse(text, {
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    bom: true,
  }) as string[][];
}

/** The data file's header and data rows as a person reading the file sees them. */
function readData(f: ExpectedFile, reading: ReadingFile | undefined): { header: string[]; rows: string[][] } {
  const meta =
    f.dir === 'reading'
      ? reading!
      : { headerRow: f.headerRow ?? 1, delimiter: f.delimiter ?? ',', encoding: f.encoding ?? 'utf-8' };
  const bytes = readFileSync(join(CORPUS, f.dir, 'files', f.file));
  const text = decode(bytes, meta.encoding);
  // Lines before the header row (a bank's account summary, LinkedIn's notes) are not records.
  const lines = text.split(/\r?\n/);
  const body = lines.slice(Math.max(0, meta.headerRow - 1)).join('\n');
  const all = parseCsv(body, meta.delimiter);
  return { header: (all[0] ?? []).map((h) => h.trim()), rows: all.slice(1) };
}

// ---------- comparing values ----------

const BOOL: Record<string, string> = {
  '1': 'T',
  true: 'T',
  yes: 'T',
  y: 'T',
  ja: 'T',
  oui: 'T',
  '0': 'F',
  false: 'F',
  no: 'F',
  n: 'F',
  nein: 'F',
  non: 'F',
};

/** A plain number from "1,250.00", "1.250,00", "-11,00", "$25", "(12.50)"; NaN when it is not one. */
function num(s: string): number {
  let t = s.trim().replace(/^'(?=[-+=@])/, '');
  const neg = /^\(.*\)$/.test(t);
  t = t.replace(/[()\s'’]/g, '').replace(/^[^\d+-]+|[^\d]+$/g, '');
  if (!/^[+-]?[\d.,]+$/.test(t)) return NaN;
  const lastComma = t.lastIndexOf(',');
  const lastDot = t.lastIndexOf('.');
  if (lastComma > lastDot) {
    // "1.250,00" or "11,00": the comma is the decimal mark when 1–2 digits follow it.
    t = /,\d{1,2}$/.test(t) ? t.replace(/\./g, '').replace(',', '.') : t.replace(/,/g, '');
  } else t = t.replace(/,/g, '');
  const n = Number(t);
  return neg ? -n : n;
}

function decimalsOf(s: string): number {
  const m = /[.,](\d+)\s*$/.exec(s.trim());
  return m ? m[1].length : 0;
}

function slug(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Whether an output cell carries the expected value (see the top comment for what counts as equal). */
function same(out: string, exp: string, joined = false): boolean {
  const o = out.trim().replace(/^'(?=[-+=@])/, '');
  const e = exp.trim();
  if (o === e || o.toLowerCase() === e.toLowerCase()) return true;
  if (joined) {
    const squash = (s: string) =>
      s
        .replace(/[\s,]+/g, ' ')
        .trim()
        .toLowerCase();
    if (squash(o) === squash(e)) return true;
  }
  if (o !== '' && e !== '') {
    const a = num(o);
    const b = num(e);
    if (Number.isFinite(a) && Number.isFinite(b)) {
      const d = decimalsOf(o);
      if (Math.abs(a - b) <= 0.5 * 10 ** -d + 1e-9) return true;
    }
    const bo = BOOL[o.toLowerCase()];
    const be = BOOL[e.toLowerCase()];
    if (bo && bo === be) return true;
  }
  return false;
}

/** An output date as ISO: YYYY-MM-DD as it is, MM/DD/YYYY when the template's format asks for it. */
function isoOf(out: string, usFormat: boolean): string {
  const o = out.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(o);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const us = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(o);
  if (us && usFormat) return `${us[3]}-${us[1]}-${us[2]}`;
  return o;
}

function expectedValue(src: Plain | { anyOf: Plain[] }, header: string[], row: string[]): string {
  const cell = (name: string) => (row[header.indexOf(name)] ?? '').trim();
  if (typeof src === 'string') return cell(src);
  if (Array.isArray(src))
    return src
      .map(cell)
      .filter((v) => v !== '')
      .join(' ');
  if ('firstOf' in src) return src.firstOf.map(cell).find((v) => v !== '') ?? '';
  if ('slugOf' in src) return slug(cell(src.slugOf));
  if ('anyOf' in src) return expectedValue(src.anyOf[0], header, row);
  return '';
}

// ---------- the flow ----------

async function json(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { error: text.slice(0, 200) };
  }
}

async function runOne(
  stack: Stack,
  f: ExpectedFile,
  t: { template: TemplateRef; columns: ExpectedColumn[] },
  dataId: string,
  templateIds: Map<string, string>,
  data: { header: string[]; rows: string[][] },
  reading: ReadingFile | undefined,
): Promise<RunResult> {
  const builtIn = t.template.id ? findBuiltInTemplate(t.template.id) : undefined;
  const name = builtIn ? builtIn.id : t.template.name!;
  const result: RunResult = {
    file: f.file,
    kind: f.kind,
    batch: f.batch ?? 1,
    template: name,
    accepted: false,
    status: '',
    right: 0,
    columns: t.columns.length,
    wrong: [],
  };
  let templateFileId: string;
  let templateHeadersSent: string[] | undefined;
  if (builtIn) {
    templateFileId = `${VIRTUAL_TEMPLATE_PREFIX}${builtIn.id}`;
    templateHeadersSent = templateHeaders(builtIn);
  } else {
    const key = t.template.headers!.join('\u0000');
    if (!templateIds.has(key)) {
      const csv = `${t.template.headers!.map((h) => (/[",]/.test(h) ? `"${h}"` : h)).join(',')}\n`;
      templateIds.set(key, await stack.upload('template', new Blob([csv]), `${name}.csv`));
    }
    templateFileId = templateIds.get(key)!;
  }

  const suggestRes = await stack.call('/api/mappings/suggest', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(
      builtIn ? { dataFileId: dataId, templateId: builtIn.id } : { dataFileId: dataId, templateFileId },
    ),
  });
  const suggested = await json(suggestRes);
  if (suggestRes.status !== 200) {
    result.status = `suggest ${suggestRes.status}: ${String(suggested.error ?? '')}`;
    return result;
  }
  const mappings = (suggested.mappings as SuggestedPair[]).map((p) => {
    const { confidence: _c, reason: _r, ...pair } = p;
    return pair;
  });
  const processRes = await stack.call('/api/process', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      templateFileId,
      dataFileId: dataId,
      mappings,
      unmappedColumns: 'empty',
      ...(templateHeadersSent ? { templateHeaders: templateHeadersSent } : {}),
    }),
  });
  const processed = await json(processRes);
  if (processRes.status !== 200) {
    result.status = `process ${processRes.status}: ${String(processed.error ?? '')}`;
    return result;
  }
  result.accepted = true;
  result.status = 'ok';
  const output = processed.output as { delimiter: string };
  const outRows = parseCsv(String(processed.csvData ?? ''), output.delimiter);
  const outHeader = outRows[0] ?? [];
  const out = outRows.slice(1);

  const expectedRows = reading?.rows;
  const usDates = builtIn?.columns.find((c) => c.name === 'Date')?.rules?.format === 'MM/DD/YYYY';
  // Bank files: each expected transaction takes the first output row, in order, within LOOKAHEAD rows of the
  // cursor whose Date and Amount equal it (as bench:reading matches them): records that are no transaction
  // (a description's continuation line, an info line) may be kept or dropped by the reader.
  let bankAt: number[] = [];
  if (expectedRows) {
    const di = outHeader.indexOf('Date');
    const ai = outHeader.indexOf('Amount');
    const hit = (row: string[], want: { date: string; amount: string }) => {
      const amount = (row[ai] ?? '').trim();
      const amountOk = want.amount === '' ? amount === '' : amount !== '' && same(amount, want.amount);
      return di >= 0 && ai >= 0 && isoOf(row[di] ?? '', usDates) === want.date && amountOk;
    };
    let cursor = 0;
    bankAt = expectedRows.map((want) => {
      for (let k = cursor; k < Math.min(out.length, cursor + LOOKAHEAD); k++)
        if (hit(out[k], want)) {
          cursor = k + 1;
          return k;
        }
      cursor++;
      return -1;
    });
    result.rows = expectedRows.length;
    result.rowsRight = bankAt.filter((k) => k >= 0).length;
  }
  // Which data row each output row shows: all of them in order, or (a bank reader that dropped the records
  // that are no transaction) the transactions only, found by their date cell.
  let pairs: [number, number][] | undefined;
  if (out.length === data.rows.length) pairs = out.map((_, k) => [k, k]);
  else if (expectedRows && reading?.dateColumn && out.length === expectedRows.length) {
    const dc = data.header.indexOf(reading.dateColumn);
    const transactions = data.rows.flatMap((r, k) => ((r[dc] ?? '').trim() !== '' ? [k] : []));
    if (transactions.length === out.length) pairs = transactions.map((d, k) => [k, d]);
  }

  for (const c of t.columns) {
    const ci = outHeader.indexOf(c.column);
    const src = c.source;
    const fromRows = typeof src === 'object' && src !== null && !Array.isArray(src) && 'expectedRows' in src;
    let ok = ci >= 0 && (fromRows || pairs !== undefined);
    let diff =
      ci < 0 ? 'not in the output' : !ok ? `${out.length} output rows for ${data.rows.length} data rows` : '';
    if (ok && fromRows) {
      const missing = bankAt.indexOf(-1);
      if (missing >= 0) {
        ok = false;
        const w = expectedRows![missing];
        diff = `transaction ${missing + 1} (${w.date} ${w.amount}) not found in order in the output`;
      }
    }
    for (let p = 0; ok && !fromRows && p < pairs!.length; p++) {
      const [k, d] = pairs![p];
      const got = out[k][ci] ?? '';
      const row = data.rows[d] ?? [];
      let want: string;
      let good: boolean;
      if (src === null) {
        want = '';
        good = got.trim() === '';
      } else if (typeof src === 'object' && !Array.isArray(src) && 'slugOf' in src) {
        want = expectedValue(src, data.header, row);
        good = slug(got) === want;
      } else {
        const options: Plain[] =
          typeof src === 'object' && !Array.isArray(src) && 'anyOf' in src ? src.anyOf : [src];
        const wants = options.map((o) => expectedValue(o, data.header, row));
        want = wants.join(' | ');
        // Shopify's Handle is a slug whatever the source: compare as slugs.
        good = wants.some((w, j) =>
          c.column === 'Handle' ? slug(got) === slug(w) : same(got, w, Array.isArray(options[j])),
        );
      }
      if (!good) {
        ok = false;
        diff = `row ${k + 1}: got ${JSON.stringify(got.slice(0, 60))}, want ${JSON.stringify(want.slice(0, 60))}`;
      }
    }
    if (ok) result.right++;
    else {
      const pair = mappings.find((p) => p.templateColumn === c.column);
      const from = !pair
        ? 'unmapped'
        : pair.empty
          ? 'left empty'
          : `← ${JSON.stringify(pair.dataColumn ?? '')}${pair.transform ? ` ${JSON.stringify(pair.transform)}` : ''}`;
      result.wrong.push(`${c.column} ${from}: ${diff} (expected ${JSON.stringify(c.source)})`);
    }
  }
  return result;
}

// ---------- suggestion latency: a 60-column file against a 40-column template ----------

const WORDS = [
  'Date',
  'Booking Date',
  'Value Date',
  'Description',
  'Verwendungszweck',
  'Omschrijving',
  'Amount',
  'Betrag',
  'Montant',
  'Currency',
  'Balance',
  'Reference',
  'First Name',
  'Last Name',
  'Company',
  'Email',
  'Phone',
  'Mobile',
  'Street',
  'City',
  'State',
  'Postcode',
  'Country',
  'SKU',
  'Title',
  'Body',
  'Price',
  'Cost',
  'Compare At Price',
  'Quantity',
  'Weight',
  'Vendor',
  'Category',
  'Tags',
  'Status',
  'URL',
  'Image',
  'Notes',
  'Created',
  'Updated',
];

/**
 * The same suggestion computed in this process (libs/domain's suggestColumnMappings on the synthetic file's
 * columns and 200 sample values each, no inferred transforms): shows how much of the route's time is the
 * matching itself and how much is the api around it.
 */
function suggestInProcess(): number {
  const files = syntheticFiles();
  const [head, ...rows] = parseCsv(files.data, ',');
  const [templateColumns] = parseCsv(files.template, ',');
  const samples: Record<string, string[]> = {};
  head.forEach((h, i) => (samples[h] = rows.map((r) => r[i] ?? '')));
  const times: number[] = [];
  for (let i = 0; i <= LATENCY_RUNS; i++) {
    const start = process.hrtime.bigint();
    suggestColumnMappings({ templateColumns, dataColumns: head, samples, inferred: {} });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (i > 0) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

function syntheticFiles(): { data: string; template: string } {
  const dataCols = Array.from(
    { length: 60 },
    (_, i) => `${WORDS[i % WORDS.length]}${i >= WORDS.length ? ` ${i}` : ''}`,
  );
  const templateCols = Array.from({ length: 40 }, (_, i) => `${WORDS[(i * 7) % WORDS.length]} (target ${i})`);
  const value = (col: string, r: number): string => {
    if (/date|created|updated/i.test(col)) return `2024-0${(r % 9) + 1}-1${r % 10}`;
    if (/amount|betrag|montant|price|cost|balance/i.test(col)) return `${(r * 13.37 - 50).toFixed(2)}`;
    if (/email/i.test(col)) return `person${r}@example.com`;
    if (/phone|mobile/i.test(col)) return `+44 20 7946 ${String(1000 + r).slice(-4)}`;
    if (/quantity|weight/i.test(col)) return String(r % 17);
    return `${col} value ${r}`;
  };
  const rows = Array.from({ length: 200 }, (_, r) => dataCols.map((c) => `"${value(c, r)}"`).join(','));
  return {
    data: `${dataCols.map((c) => `"${c}"`).join(',')}\n${rows.join('\n')}\n`,
    template: `${templateCols.map((c) => `"${c}"`).join(',')}\n`,
  };
}

async function suggestLatency(stack: Stack): Promise<{ median: number; p95: number; status: number }> {
  const files = syntheticFiles();
  const dataFileId = await stack.upload('data', new Blob([files.data]), 'wide-60.csv');
  const templateFileId = await stack.upload('template', new Blob([files.template]), 'template-40.csv');
  const times: number[] = [];
  let status = 0;
  for (let i = 0; i <= LATENCY_RUNS; i++) {
    const start = process.hrtime.bigint();
    const res = await stack.call('/api/mappings/suggest', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ dataFileId, templateFileId }),
    });
    await res.arrayBuffer();
    status = res.status;
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (i > 0) times.push(ms); // the first call warms the route up
  }
  times.sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)],
    p95: times[Math.ceil(times.length * 0.95) - 1],
    status,
  };
}

// ---------- main ----------

const pct = (a: number, b: number) => (b === 0 ? 0 : (100 * a) / b);

async function main(): Promise<void> {
  const expected = JSON.parse(readFileSync(join(CORPUS, 'zero-touch/expected.json'), 'utf8')) as {
    files: ExpectedFile[];
  };
  const reading = new Map(
    (
      JSON.parse(readFileSync(join(CORPUS, 'reading/expected.json'), 'utf8')) as { files: ReadingFile[] }
    ).files.map((f) => [f.file, f]),
  );
  const stack = await startStack({ fromSource: true });
  const results: RunResult[] = [];
  let latency: Awaited<ReturnType<typeof suggestLatency>> | undefined;
  try {
    const templateIds = new Map<string, string>();
    for (const f of expected.files) {
      const r = f.dir === 'reading' ? reading.get(f.file) : undefined;
      if (f.dir === 'reading' && !r?.rows) {
        console.log(`${f.file}: no expected rows in bench/corpus/reading/expected.json, skipped`);
        continue;
      }
      const data = readData(f, r);
      let dataId: string;
      try {
        dataId = await stack.upload(
          'data',
          new Blob([readFileSync(join(CORPUS, f.dir, 'files', f.file))]),
          f.file,
        );
      } catch (e) {
        for (const t of f.templates)
          results.push({
            file: f.file,
            kind: f.kind,
            batch: f.batch ?? 1,
            template: t.template.id ?? t.template.name!,
            accepted: false,
            status: `upload: ${(e as Error).message.slice(0, 120)}`,
            right: 0,
            columns: t.columns.length,
            wrong: [],
          });
        continue;
      }
      for (const t of f.templates) results.push(await runOne(stack, f, t, dataId, templateIds, data, r));
    }
    latency = await suggestLatency(stack);
  } finally {
    await stack.stop();
  }

  const w = Math.max(...results.map((r) => r.file.length));
  const tw = Math.max(...results.map((r) => r.template.length));
  console.log(`${'file'.padEnd(w)}  ${'template'.padEnd(tw)}  columns  accepted  bank rows`);
  for (const r of results) {
    const rows = r.rows === undefined ? '' : `${r.rowsRight}/${r.rows}`;
    console.log(
      `${r.file.padEnd(w)}  ${r.template.padEnd(tw)}  ${`${r.right}/${r.columns}`.padStart(7)}  ${(r.accepted ? 'yes' : 'NO').padEnd(8)}  ${rows}${r.accepted ? '' : `  ${r.status}`}`,
    );
    if (VERBOSE) for (const line of r.wrong) console.log(`    ${line}`);
  }
  const byKind = (k?: string) => results.filter((r) => !k || r.kind === k);
  console.log('');
  for (const k of ['contact', 'product', 'bank', undefined]) {
    const rs = byKind(k);
    const right = rs.reduce((s, r) => s + r.right, 0);
    const cols = rs.reduce((s, r) => s + r.columns, 0);
    const acc = rs.filter((r) => r.accepted).length;
    console.log(
      `${(k ?? 'all').padEnd(8)} template columns right ${right}/${cols} (${pct(right, cols).toFixed(1)} %), runs accepted ${acc}/${rs.length}, files ${new Set(rs.map((r) => r.file)).size}`,
    );
  }
  for (const batch of [1, 2, 3]) {
    const rs = results.filter((r) => r.batch === batch);
    if (rs.length === 0) continue;
    const right = rs.reduce((s, r) => s + r.right, 0);
    const cols = rs.reduce((s, r) => s + r.columns, 0);
    const acc = rs.filter((r) => r.accepted).length;
    const what =
      batch === 1
        ? 'in the corpus when the lexicon was written'
        : batch === 2
          ? 'added afterwards, held out'
          : 'bank files added by the lead, held out';
    console.log(
      `batch ${batch} (${what}): template columns right ${right}/${cols} (${pct(right, cols).toFixed(1)} %), runs accepted ${acc}/${rs.length}, files ${new Set(rs.map((r) => r.file)).size}`,
    );
  }
  const bank = byKind('bank').filter((r) => r.rows !== undefined);
  const rowsRight = bank.reduce((s, r) => s + (r.rowsRight ?? 0), 0);
  const rows = bank.reduce((s, r) => s + (r.rows ?? 0), 0);
  const all = byKind();
  const colsPct = pct(
    all.reduce((s, r) => s + r.right, 0),
    all.reduce((s, r) => s + r.columns, 0),
  );
  console.log(
    `bank rows right (Date and Amount, every bank run): ${rowsRight}/${rows} (${pct(rowsRight, rows).toFixed(1)} %)`,
  );
  console.log(
    `suggestColumnMappings in this process, same input: median ${suggestInProcess().toFixed(1)} ms over ${LATENCY_RUNS} calls`,
  );
  if (latency)
    console.log(
      `suggest, 60-column file × 40-column template: median ${latency.median.toFixed(1)} ms, p95 ${latency.p95.toFixed(1)} ms over ${LATENCY_RUNS} calls (HTTP ${latency.status}, round trip through the api)`,
    );
  console.log('');
  console.log(
    `goal: ≥ ${GOALS.columns} % template columns right: ${colsPct.toFixed(1)} % ${colsPct >= GOALS.columns ? 'met' : 'NOT met'}`,
  );
  const acc = all.filter((r) => r.accepted).length;
  console.log(`goal: every run accepted: ${acc}/${all.length} ${acc === all.length ? 'met' : 'NOT met'}`);
  console.log(
    `goal: bank rows right ≥ ${GOALS.bankRows} %: ${pct(rowsRight, rows).toFixed(1)} % ${pct(rowsRight, rows) >= GOALS.bankRows ? 'met' : 'NOT met'}`,
  );
  if (latency)
    console.log(
      `goal: suggestion ≤ ${GOALS.suggestMs} ms (median): ${latency.median.toFixed(1)} ms ${latency.median <= GOALS.suggestMs ? 'met' : 'NOT met'}`,
    );
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
