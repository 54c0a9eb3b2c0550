// threads: 2 must give exactly what threads: 1 gives — the same bytes, stats, warnings (row and line
// numbers included), control totals and errors — whatever the data and however it is chunked.
import fc from 'fast-check';
import { applyMapping, type CsvInput } from './mapping';
import { parallelCounters } from './parallel';
import { FC_RUNS } from './test-helpers';
import type { ApplyOptions, ApplyStats, MappingPair } from './types';

jest.setTimeout(120_000);

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HEADER = 'ID,Name,Booking Date,Betrag,Paid,Notes,Code';

/** A messy export: quoted names, escaped quotes, multi-line notes, bad dates/amounts, ragged and blank rows. */
function messyCsv(rows: number, seed: number, multiLine = 0.02): Buffer {
  const r = rng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const lines = [HEADER];
  for (let i = 1; i <= rows; i++) {
    const name = pick(['Anna Novak', '"Müller, Jörg"', '"Grace ""R."" Rossi"', 'Ben', '', '=cmd()', 'Zoë']);
    const day = 1 + Math.floor(r() * 28);
    const month = 1 + Math.floor(r() * 12);
    const date =
      r() < 0.01
        ? 'soon'
        : `${String(day).padStart(2, '0')}/${String(month).padStart(2, '0')}/20${10 + Math.floor(r() * 15)}`;
    const cents = Math.floor(r() * 1e7) - 3e6;
    const amount =
      r() < 0.01
        ? 'n/a'
        : `"${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100).toLocaleString('de-DE')},${String(Math.abs(cents) % 100).padStart(2, '0')}"`;
    const paid = pick(['yes', 'no', 'ja', 'nein', '', 'maybe']);
    const notes =
      r() < multiLine
        ? `"line one\nline two, with comma\r\nline ""three"""`
        : pick(['Paid by card', '"Invoice 2024/117, partial"', '', 'Gift wrap']);
    const code = pick(['A1', '  padded  ', '+44 20 7000 1000', '-12', '@sum']);
    let fields = [String(i), name, date, amount, paid, notes, code];
    const shape = r();
    if (shape < 0.005)
      fields = fields.slice(0, 4); // ragged: too few
    else if (shape < 0.01) fields.push('extra'); // ragged: too many
    lines.push(fields.join(','));
    if (r() < 0.003) lines.push(''); // blank line
  }
  return Buffer.from(lines.join(r() < 0.5 ? '\r\n' : '\n') + '\n', 'utf8');
}

const TEMPLATE = ['Date', 'Customer', 'Amount', 'Paid', 'Memo', 'Code', 'Source'];
const MAPPINGS: MappingPair[] = [
  { templateColumn: 'Date', dataColumn: 'Booking Date', transform: { kind: 'date', output: 'MM/DD/YYYY' } },
  { templateColumn: 'Customer', dataColumn: 'Name', transform: { kind: 'trim' } },
  { templateColumn: 'Amount', dataColumn: 'Betrag', transform: { kind: 'amount' } },
  { templateColumn: 'Paid', dataColumn: 'Paid', transform: { kind: 'boolean', output: ['Y', 'N'] } },
  { templateColumn: 'Memo', dataColumn: 'Notes' },
  { templateColumn: 'Code', dataColumn: 'Code' },
  { templateColumn: 'Source', dataColumn: 'ID', transform: { kind: 'constant', value: 'bank "A"' } },
];
const BASE: ApplyOptions = { required: ['Customer', 'Amount'], inferenceRows: 300, maxWarnings: 100_000 };

function chunked(data: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < data.length; i += size) out.push(data.subarray(i, i + size));
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Yields the chunks; with `waitForWorker`, holds back the chunks after the first 192 KB (enough for the
 * sniff sample, the header and the inference sample) until the worker has loaded, so the parallel path is
 * really taken.
 */
async function* feed(chunks: Buffer[], waitForWorker: boolean): AsyncGenerator<Buffer> {
  const target = parallelCounters.ready + 1;
  let sent = 0;
  for (const chunk of chunks) {
    if (waitForWorker && sent >= 192 * 1024) {
      const t0 = Date.now();
      while (parallelCounters.ready < target && Date.now() - t0 < 30_000) await sleep(5);
    }
    sent += chunk.length;
    yield chunk;
  }
}

interface Outcome {
  data?: Buffer;
  stats?: ApplyStats;
  error?: { code: string; line?: number; message: string };
}

async function run(input: CsvInput, options: ApplyOptions): Promise<Outcome> {
  try {
    const { output, stats } = applyMapping(input, TEMPLATE, MAPPINGS, options);
    const parts: Buffer[] = [];
    for await (const c of output) parts.push(c as Buffer);
    return { data: Buffer.concat(parts), stats: await stats };
  } catch (e) {
    const err = e as { code: string; line?: number; message: string };
    return { error: { code: err.code, line: err.line, message: err.message } };
  }
}

/** Maps `data` with one thread and with two; returns both outcomes and the blocks the worker mapped. */
async function both(data: Buffer, chunkSize: number, options: ApplyOptions = {}) {
  const chunks = chunked(data, chunkSize);
  const one = await run(feed(chunks, false), { ...BASE, ...options });
  const hits = parallelCounters.hits;
  const misses = parallelCounters.misses;
  const two = await run(feed(chunks, true), { ...BASE, ...options, threads: 2 });
  return { one, two, hits: parallelCounters.hits - hits, misses: parallelCounters.misses - misses };
}

describe('parallel mapping (threads: 2)', () => {
  it('gives the same bytes and stats as one thread on a messy 3 MB export', async () => {
    const data = messyCsv(30_000, 1);
    const { one, two, hits } = await both(data, 64 * 1024);
    expect(one.error).toBeUndefined();
    expect(two.error).toBeUndefined();
    expect(hits).toBeGreaterThan(20); // the worker really mapped most chunks' second parts
    expect(two.data?.equals(one.data as Buffer)).toBe(true);
    expect(two.stats).toEqual(one.stats);
    // the data has something of everything the merge must renumber or add up
    const s = one.stats as ApplyStats;
    expect(s.rowsIn).toBe(30_000);
    expect(s.raggedRows).toBeGreaterThan(100);
    expect(s.warnings.some((w) => /\(line \d+\)/.test(w.reason) && w.row > 20_000)).toBe(true);
    expect(s.warnings.some((w) => w.reason.startsWith('Not a date'))).toBe(true);
    expect(s.warnings.some((w) => w.reason === 'Not a yes/no value')).toBe(true);
    expect(s.requiredMissing).toBeGreaterThan(0);
    expect(s.controlTotals[0].values).toBeGreaterThan(29_000);
  });

  it('falls back to the main thread where a split lands inside a quoted field, with the same result', async () => {
    // every third row holds line breaks inside quotes, so some splits fall inside a field
    const data = messyCsv(20_000, 2, 0.35);
    const { one, two, hits, misses } = await both(data, 48 * 1024);
    expect(misses).toBeGreaterThan(0);
    expect(hits).toBeGreaterThan(0);
    expect(two.data?.equals(one.data as Buffer)).toBe(true);
    expect(two.stats).toEqual(one.stats);
  });

  it.each<[string, ApplyOptions]>([
    ['LF line ends and semicolons', { lineEnding: '\n', delimiter: ';' }],
    ['Windows-1252 output with unmappable characters', { encoding: 'windows-1252' }],
    ['a BOM and no formula protection', { bom: true, formulaProtection: false }],
    ['few warnings kept', { maxWarnings: 3 }],
  ])('matches one thread with %s', async (_name, options) => {
    const data = Buffer.concat([
      messyCsv(8_000, 3),
      Buffer.from('9999,Łukasz 😀,01/02/2020,"1,00",yes,ok,A1\n'),
    ]);
    const { one, two, hits } = await both(data, 32 * 1024, options);
    expect(hits).toBeGreaterThan(0);
    expect(two.data?.equals(one.data as Buffer)).toBe(true);
    expect(two.stats).toEqual(one.stats);
  });

  it('reports the same error on the same line: an unterminated quote near the end', async () => {
    const data = Buffer.concat([messyCsv(15_000, 4, 0), Buffer.from('15001,"never closed,01/01/2020\n')]);
    const { one, two, hits } = await both(data, 64 * 1024);
    expect(hits).toBeGreaterThan(0);
    expect(one.error?.code).toBe('UNTERMINATED_QUOTE');
    expect(two.error).toEqual(one.error);
  });

  it('reports the same error on the same line: invalid UTF-8 in a later chunk', async () => {
    const good = messyCsv(15_000, 5, 0);
    const bad = Buffer.concat([good, Buffer.from([0x31, 0x2c, 0xc3, 0x28, 0x0a])]);
    const { one, two } = await both(bad, 64 * 1024, { input: { encoding: 'utf-8' } });
    expect(one.error?.code).toBe('INVALID_ENCODING');
    expect(two.error).toEqual(one.error);
  });

  it.each([5_000, 12_345, 15_000, 20_000])(
    'stops exactly at maxRows %i, as one thread does',
    async (maxRows) => {
      const data = messyCsv(15_000, 6, 0);
      const { one, two, hits } = await both(data, 32 * 1024, { maxRows });
      expect(hits).toBeGreaterThan(0);
      expect(one.stats?.truncated).toBe(maxRows < 15_000);
      expect(two.data?.equals(one.data as Buffer)).toBe(true);
      expect(two.stats).toEqual(one.stats);
    },
  );

  it('rejects threads that are not a whole number of 1 or more', () => {
    expect(() =>
      applyMapping('a\n1\n', ['a'], [{ templateColumn: 'a', dataColumn: 'a' }], { threads: 0 }),
    ).toThrow('threads must be a whole number, 1 or more.');
  });

  it('property: any table of awkward cells, any chunk size — the same as one thread', async () => {
    const unit = fc.constantFrom('a', 'Z', ' ', '"', ',', '\r', '\n', 'é', '😀', '1', '.', '=');
    const cell = fc.string({ unit, maxLength: 12 });
    const quoted = cell.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c));
    // raw cells too: stray quotes and text after a closing quote are part of real files
    const field = fc.oneof(
      quoted,
      quoted,
      cell.filter((c) => !/[,\r\n]/.test(c)),
    );
    const row = fc.array(field, { minLength: 7, maxLength: 7 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 300, maxLength: 900 }),
        fc.integer({ min: 16 * 1024, max: 40 * 1024 }),
        fc.constantFrom('\r\n', '\n'),
        async (rows, chunkSize, nl) => {
          const text =
            'ID,Name,Booking Date,Betrag,Paid,Notes,Code' + nl + rows.map((r) => r.join(',')).join(nl) + nl;
          // repeat until the input is big enough to be split a few times after the first 192 KB
          const data = Buffer.from(text.repeat(Math.ceil((400 * 1024) / text.length)), 'utf8');
          // the header is pinned: random rows must not make the sniffer pick another header row
          const { one, two, hits, misses } = await both(data, chunkSize, {
            input: { headerRow: 1, delimiter: ',' },
          });
          expect(hits + misses).toBeGreaterThan(0); // the worker mapped blocks (used or not)
          expect(two.error).toEqual(one.error);
          if (one.data) {
            expect(two.data?.equals(one.data)).toBe(true);
            expect(two.stats).toEqual(one.stats);
          }
        },
      ),
      { numRuns: Math.max(12, Math.floor(FC_RUNS / 40)) },
    );
  });
});
