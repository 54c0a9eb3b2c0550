// The SIMD pre-pass (scan.wat via simd-scan.ts) against a byte-by-byte reference, and RecordParser with the
// pre-pass against the same parser reading every byte itself (simd: false). FC_RUNS=10000 for the nightly mode.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { CR, LF, QUOTE, RecordParser, fieldString, recordStrings } from './parser';
import type { ParserLimits, RecordView } from './parser';
import { SCAN_WASM_BASE64 } from './scan-wasm';
import {
  LINE_END,
  MARK_ESCAPED,
  MARK_LINES,
  MARK_NEEDS_QUOTE,
  MAX_SCAN_BYTES,
  simdScanner,
} from './simd-scan';
import type { SimdScanner } from './simd-scan';
import { FC_RUNS, splitAt } from './test-helpers';

/** scripts/build-scan-wasm.js, which is CommonJS without types. */
interface BuildScanWasm {
  assemble(): Promise<Buffer>;
  source(bytes: Buffer): string;
}

/** parser.ts's PIECE_BYTES (not exported): push() cuts larger chunks into pieces of this size. */
const PIECE = 1024 * 1024;
const DELIMS = [',', ';', '\t', '|'] as const;
const byteOf = (d: string): number => d.charCodeAt(0);

function scanner(): SimdScanner {
  const s = simdScanner();
  if (s === null) throw new Error('WebAssembly SIMD is not available on this Node');
  return s;
}

/**
 * The scanner's memory. A record whose `ends` lives there was read from the pre-pass's list (recordIndexed);
 * one read byte by byte has the parser's own array.
 */
function scanMemory(): ArrayBufferLike {
  const found = scanner().scan(Buffer.alloc(0), 0, byteOf(','));
  if (found === null) throw new Error('an empty buffer cannot have misplaced quotes');
  return found.ends.buffer;
}

// ---------------------------------------------------------------------------------------------------------
// Parser runs, recorded field by field

interface Rec {
  strings: string[];
  /** Raw bytes of each field, quotes included (latin1: one char per byte, so exact). */
  raw: string[];
  flags: number[];
  count: number;
  line: number;
}

interface Outcome {
  records: Rec[];
  error: { name: string; message: string } | null;
  bytesConsumed: number;
  nextLine: number;
}

function snapshot(r: RecordView): Rec {
  const raw: string[] = [];
  const flags: number[] = [];
  for (let k = 0; k < r.count; k++) {
    raw.push(r.buf.toString('latin1', r.ends[r.base + k - 1] + 1, r.ends[r.base + k]));
    flags.push(r.flagsOf(k));
  }
  return { strings: recordStrings(r), raw, flags, count: r.count, line: r.line };
}

interface RunOptions {
  limits?: ParserLimits;
  /** Stop (handler returns false) after this many records. */
  stopAfter?: number | null;
  /** Called with each record (before it is recorded), e.g. to see which path read it. */
  onEach?: (r: RecordView) => void;
}

function run(chunks: Buffer[], delim: number, simd: boolean, opts: RunOptions = {}): Outcome {
  const records: Rec[] = [];
  const p = new RecordParser(
    delim,
    (r) => {
      opts.onEach?.(r);
      records.push(snapshot(r));
      if (opts.stopAfter != null && records.length >= opts.stopAfter) return false;
    },
    opts.limits ?? {},
    simd,
  );
  let error: Outcome['error'] = null;
  try {
    for (const c of chunks) p.push(c);
    p.end();
  } catch (e) {
    error =
      e instanceof Error
        ? { name: e.constructor.name, message: e.message }
        : { name: '?', message: String(e) };
  }
  return { records, error, bytesConsumed: p.bytesConsumed, nextLine: p.nextLine };
}

/** Deep equality without Jest's diff machinery on 100k records; on a mismatch, shows the first differing one. */
function expectSameOutcome(simd: Outcome, bytewise: Outcome): void {
  const n = Math.min(simd.records.length, bytewise.records.length);
  let i = 0;
  while (i < n && isDeepStrictEqual(simd.records[i], bytewise.records[i])) i++;
  if (i < n) expect({ index: i, record: simd.records[i] }).toEqual({ index: i, record: bytewise.records[i] });
  expect(simd.records.length).toBe(bytewise.records.length);
  expect({ ...simd, records: null }).toEqual({ ...bytewise, records: null });
}

// ---------------------------------------------------------------------------------------------------------
// Generators

/** Cells valid under RFC 4180 for every delimiter: plain text without specials, or quoted with "" escapes. */
const plainCell = fc.string({ unit: fc.constantFrom('a', 'é', ' ', 'x', '1', '😀'), maxLength: 6 });
const quotedCell = fc
  .string({
    unit: fc.constantFrom('a', 'é', ' ', ',', ';', '\t', '|', '\r', '\n', '\r\n', '"'),
    maxLength: 10,
  })
  .map((s) => `"${s.replace(/"/g, '""')}"`);
const wellFormedCell = fc.oneof(plainCell, quotedCell);
/** Record ends, blank lines included (CR-only too). */
const lineEnd = fc.constantFrom('\n', '\r\n', '\r', '\n\n', '\r\n\r\n', '\r\r');

/** Ragged rows of well-formed cells joined with `d`; the final line end is sometimes left off. */
function wellFormedCsv(d: string): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.array(fc.tuple(fc.array(wellFormedCell, { minLength: 1, maxLength: 5 }), lineEnd), {
        minLength: 1,
        maxLength: 10,
      }),
      fc.boolean(),
    )
    .map(([rows, finalEnd]) => {
      const text = rows.map(([cells, nl]) => cells.join(d) + nl).join('');
      return finalEnd ? text : text.replace(/[\r\n]+$/, '');
    });
}

/** Anything goes: stray quotes, text after closing quotes, quoted specials, bare separators of every kind. */
const messyUnit = fc.constantFrom(
  'a',
  'é',
  ' ',
  '"',
  '""',
  'ab"c',
  '"ab"c',
  '"x""y"',
  '"a,b;c|d\te"',
  '"l1\nl2"',
  '"l1\r\nl2"',
  '"l1\rl2"',
  ',',
  ';',
  '\t',
  '|',
  '\r',
  '\n',
  '\r\n',
);
const messyCsv = fc.array(messyUnit, { maxLength: 60 }).map((u) => u.join(''));

/** Half well-formed (the SIMD path), a quarter well-formed with one bad unit somewhere, a quarter soup. */
function csvText(d: string): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: wellFormedCsv(d), weight: 2 },
    {
      arbitrary: fc
        .tuple(wellFormedCsv(d), messyUnit, fc.nat())
        .map(([t, u, at]) => t.slice(0, at % (t.length + 1)) + u + t.slice(at % (t.length + 1))),
      weight: 1,
    },
    { arbitrary: messyCsv, weight: 1 },
  );
}

// ---------------------------------------------------------------------------------------------------------
// The scan's contract, byte by byte

interface Expected {
  /** Every quote where RFC 4180 puts one (else the scan must return null). */
  valid: boolean;
  /** Offsets of the separators outside quotes, LINE_END set on LF and CR. */
  seps: number[];
  /**
   * The marks, as '0'/'1' per byte: on a separator outside quotes, whether the field it ends holds a
   * delimiter or line break inside quotes (need) / a "" (escaped); on a line end, whether the record it ends
   * holds a line break inside quotes (lines).
   */
  need: string;
  escaped: string;
  lines: string;
}

/**
 * The toggle model: every quote flips "inside". An opening quote must be at the start, right after a
 * separator, or right after a closing quote (""); a closing quote must be followed by a separator, a quote
 * (which opens again: ""), or the end of the data.
 */
function reference(bytes: Uint8Array, n: number, delim: number): Expected {
  const isSep = (c: number) => c === delim || c === LF || c === CR;
  const seps: number[] = [];
  const need = new Array<string>(n).fill('0');
  const escaped = new Array<string>(n).fill('0');
  const lines = new Array<string>(n).fill('0');
  let inside = false;
  let valid = true;
  let lastClose = -2;
  let fieldNeeds = false;
  let fieldEscaped = false;
  let recordLines = false;
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b === QUOTE) {
      inside = !inside;
      if (inside) {
        if (i > 0 && !isSep(bytes[i - 1]) && lastClose !== i - 1) valid = false;
        if (lastClose === i - 1) fieldEscaped = true;
      } else {
        lastClose = i;
        if (i + 1 < n && !isSep(bytes[i + 1]) && bytes[i + 1] !== QUOTE) valid = false;
      }
    } else if (inside && isSep(b)) {
      fieldNeeds = true;
      if (b !== delim) recordLines = true;
    } else if (isSep(b)) {
      seps.push(b === delim ? i : i | LINE_END);
      need[i] = fieldNeeds ? '1' : '0';
      escaped[i] = fieldEscaped ? '1' : '0';
      fieldNeeds = fieldEscaped = false;
      if (b !== delim) {
        lines[i] = recordLines ? '1' : '0';
        recordLines = false;
      }
    }
  }
  return { valid, seps, need: need.join(''), escaped: escaped.join(''), lines: lines.join('') };
}

/** The bits of marks word `word` (MARK_*) for bytes [0, n), as '0'/'1'. */
function markBits(marks: Int32Array, n: number, word: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += (marks[(i >>> 5) * 3 + word] >>> (i & 31)) & 1;
  return s;
}

const offsetOf = (e: number): number => e & ~LINE_END;

describe('SIMD pre-pass (scan.wat)', () => {
  it('scan-wasm.ts holds exactly what scripts/build-scan-wasm.js assembles from scan.wat', async () => {
    // A native require: the script and wabt are plain CommonJS, no need to transform them.
    const build = createRequire(__filename)('../../../scripts/build-scan-wasm.js') as BuildScanWasm;
    const bytes = await build.assemble();
    const hint = 'scan-wasm.ts is out of date with scan.wat: run `node scripts/build-scan-wasm.js`';
    expect({ upToDate: bytes.toString('base64') === SCAN_WASM_BASE64, hint }).toEqual({
      upToDate: true,
      hint,
    });
    // The whole generated file, so a hand edit of it shows up too.
    const onDisk = readFileSync(join(__dirname, 'scan-wasm.ts'), 'utf8');
    expect({ upToDate: build.source(bytes) === onDisk, hint }).toEqual({ upToDate: true, hint });
  });

  it('is available on this Node (WebAssembly SIMD), so the other tests exercise it', () => {
    expect(simdScanner()).not.toBeNull();
  });

  it('lists the separators outside quotes and sets the marks exactly as the byte-by-byte reference', () => {
    const scanUnit = fc.constantFrom(
      'a',
      'é',
      ' ',
      '"',
      ',',
      ';',
      '\t',
      '|',
      '\r',
      '\n',
      '""',
      '"a,b"',
      '"x""y"',
      '"\r\n;|\t"',
      'bbbbbbbbbbbb',
    );
    const soup = fc.array(scanUnit, { maxLength: 150 }).map((u) => u.join(''));
    const text = fc.oneof(soup, fc.constantFrom(...DELIMS).chain(wellFormedCsv));
    const s = scanner();
    let accepted = 0;
    fc.assert(
      fc.property(text, fc.uint8Array({ maxLength: 40 }), (t, junk) => {
        const data = Buffer.from(t);
        const n = data.length;
        // Bytes past n must be ignored (scan copies only buf[0, n)).
        const buf = Buffer.concat([data, junk]);
        for (const d of DELIMS) {
          const delim = byteOf(d);
          const want = reference(data, n, delim);
          const found = s.scan(buf, n, delim);
          if (!want.valid) {
            expect(found).toBeNull();
            continue;
          }
          expect(found).not.toBeNull();
          if (found === null) return;
          accepted++;
          const list = Array.from(found.ends).slice(1);
          const inData = list.filter((e) => offsetOf(e) < n);
          const after = list.slice(inData.length);
          const marker = after.pop();
          // One comparison per scan (an expect per entry makes this test several times slower).
          expect({
            seps: inData,
            // strictly increasing, so the data's entries come first and the marker last
            increasing: list.every((e, k) => k === 0 || offsetOf(e) > offsetOf(list[k - 1])),
            // before the marker, only the padding's delimiters: past the data, never a line end
            padding: after.every((e) => e >= n),
            marker: marker !== undefined && (marker & LINE_END) === LINE_END && offsetOf(marker) >= n,
          }).toEqual({ seps: want.seps, increasing: true, padding: true, marker: true });
          expect(found.marks.length).toBeGreaterThanOrEqual(Math.ceil(n / 32) * 3);
          expect({
            need: markBits(found.marks, n, MARK_NEEDS_QUOTE),
            escaped: markBits(found.marks, n, MARK_ESCAPED),
            lines: markBits(found.marks, n, MARK_LINES),
          }).toEqual({ need: want.need, escaped: want.escaped, lines: want.lines });
        }
      }),
      { numRuns: FC_RUNS },
    );
    // Guards the generator: most checks above are only made for inputs the scan accepts.
    if (FC_RUNS >= 100) expect(accepted).toBeGreaterThan(FC_RUNS / 4);
  });
});

describe('RecordParser with and without the SIMD pre-pass', () => {
  it('gives the same records, flags, lines and errors for any text, delimiter, chunking and limits', () => {
    const limits = fc.oneof(
      { arbitrary: fc.constant<ParserLimits>({}), weight: 4 },
      {
        arbitrary: fc.record({
          maxFieldBytes: fc.integer({ min: 1, max: 24 }),
          maxRowBytes: fc.integer({ min: 1, max: 60 }),
          maxColumns: fc.integer({ min: 1, max: 6 }),
        }),
        weight: 1,
      },
    );
    const stopAfter = fc.oneof(
      { arbitrary: fc.constant(null), weight: 4 },
      { arbitrary: fc.integer({ min: 1, max: 4 }), weight: 1 },
    );
    const cuts = fc.oneof(fc.constant([]), fc.array(fc.nat(), { minLength: 1, maxLength: 8 }));
    const memory = scanMemory();
    let indexed = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...DELIMS).chain((d) => fc.tuple(fc.constant(d), csvText(d))),
        cuts,
        limits,
        stopAfter,
        ([d, text], at, lim, stop) => {
          const bytes = Buffer.from(text);
          const chunks = splitAt(
            bytes,
            at.map((c) => c % (bytes.length + 1)),
          );
          const opts = { limits: lim, stopAfter: stop };
          const simd = run(chunks, byteOf(d), true, {
            ...opts,
            onEach: (r) => {
              if (r.ends.buffer === memory) indexed++;
            },
          });
          expect(simd).toEqual(run(chunks, byteOf(d), false, opts));
        },
      ),
      { numRuns: FC_RUNS },
    );
    // The comparison means something only if the SIMD path really read records.
    if (FC_RUNS >= 100) expect(indexed).toBeGreaterThan(FC_RUNS);
  });

  /** A file like a CRM export: quoted names with commas, "" escapes, quoted line breaks; CRLF. */
  function contacts(rows: number, strayAt = -1): string[] {
    const out = ['id,name,city,note\r\n'];
    for (let i = 0; i < rows; i++) {
      const note =
        i === strayAt
          ? 'ab"c'
          : i % 7 === 0
            ? '"she said ""hi"""'
            : i % 13 === 0
              ? '"line one\nline two\r\nline three"'
              : `n${i}`;
      out.push(`${i},"Doe, Jane ${i}",${i % 3 === 0 ? '' : 'Paris'},${note}\r\n`);
    }
    return out;
  }

  it('reads well-formed data from the pre-pass list, and falls back only for a buffer with a stray quote', () => {
    const memory = scanMemory();
    const comma = byteOf(',');

    const good = Buffer.from(contacts(3000).join(''));
    expect(scanner().scan(good, good.length, comma)).not.toBeNull();
    let indexed = 0;
    const simd = run([good], comma, true, { onEach: (r) => void (r.ends.buffer === memory && indexed++) });
    expectSameOutcome(simd, run([good], comma, false));
    expect(simd.records).toHaveLength(3001);
    expect(simd.records[14]).toEqual(
      expect.objectContaining({
        strings: ['13', 'Doe, Jane 13', 'Paris', 'line one\nline two\r\nline three'],
      }),
    );
    expect(indexed).toBe(3001);

    // Row 1500 has a stray quote: that buffer is read byte by byte, the others still from the list.
    const rows = contacts(3000, 1500);
    const bad = Buffer.from(rows.join(''));
    expect(scanner().scan(bad, bad.length, comma)).toBeNull();
    expectSameOutcome(run([bad], comma, true), run([bad], comma, false));
    expect(run([bad], comma, true).records[1501].strings).toEqual(['1500', 'Doe, Jane 1500', '', 'ab"c']);
    const chunks = [rows.slice(0, 1001), rows.slice(1001, 2001), rows.slice(2001)].map((r) =>
      Buffer.from(r.join('')),
    );
    expectSameOutcome(run(chunks, comma, true), run(chunks, comma, false));
    // Chunks end at record ends, so each record belongs to the chunk being pushed when it is reported.
    const paths: boolean[][] = [[], [], []];
    let current = 0;
    const p = new RecordParser(comma, (r) => void paths[current].push(r.ends.buffer === memory));
    for (current = 0; current < chunks.length; current++) p.push(chunks[current]);
    p.end();
    expect(paths.map((c) => c.length)).toEqual([1001, 1000, 1000]);
    expect(paths.map((c) => c.filter(Boolean).length)).toEqual([1001, 0, 1000]);
  });

  it('parses a chunk larger than MAX_SCAN_BYTES in one push the same (1 MB pieces, records across them)', () => {
    const comma = byteOf(',');
    // Rows of the usual kind, and records placed exactly across the piece boundaries: at 1 MB a quoted field
    // whose first line break comes after the boundary (the held-back tail cannot be completed up to that
    // LF), at 2 MB a 100 kB quoted field (held back as a long record), at 3 MB a CRLF cut between CR and LF,
    // at 4 MB a "" escape cut between its quotes.
    const parts: string[] = ['id,name,amount,note,flag\r\n'];
    let len = parts[0].length;
    const add = (row: string) => {
      parts.push(row);
      len += Buffer.byteLength(row);
    };
    /** Adds a plain row (CRLF-ended) that makes the data exactly `target` bytes long. */
    const padTo = (target: number) => add(`pad,${'x'.repeat(target - len - 6)}\r\n`);
    const specials: [number, () => void][] = [
      [PIECE - 10, () => add('b1,"across ""it""\nthe\r\nfirst\nboundary",1,x,\r\n')],
      [2 * PIECE - 50_000, () => add(`b2,"${'long, ""quoted""\nvalue '.repeat(5000)}",2,y,1\r\n`)],
      [3 * PIECE + 1, () => add('b3,after the split CRLF\r\n')],
      [4 * PIECE - 6, () => add('b4,"q""q",z\r\n')],
    ];
    for (let i = 0; len < 5.2 * PIECE; i++) {
      const special = specials[0];
      if (special !== undefined && len >= special[0] - 200) {
        padTo(special[0]);
        special[1]();
        specials.shift();
      } else {
        const note = i % 9 === 0 ? `"x ""${i}""\r\ny"` : `n${i}`;
        add(`${i},"Müller, Anna ${i}",${(i * 37.5).toFixed(2)},${note},${i % 2 ? '' : 'é'}\r\n`);
      }
    }
    const big = Buffer.from(parts.join(''));
    expect(big.length).toBeGreaterThan(MAX_SCAN_BYTES);
    // The placements above, checked: each would silently stop testing anything if the rows changed.
    const at = (offset: number, text: string) =>
      expect(big.toString('latin1', offset, offset + text.length)).toBe(text);
    at(PIECE - 10, 'b1,"across ""it""\nthe');
    at(2 * PIECE - 50_000, 'b2,"long');
    at(3 * PIECE - 1, '\r\nb3');
    at(4 * PIECE - 6, 'b4,"q""q"');
    const simd = run([big], comma, true);
    expectSameOutcome(simd, run([big], comma, false));
    expect(simd.records.length).toBe(parts.length);
    expect(simd.records.find((r) => r.strings[0] === 'b4')?.strings).toEqual(['b4', 'q"q', 'z']);
    expect(simd.error).toBeNull();

    // One record larger than MAX_SCAN_BYTES: held back and rescanned as it grows, then read byte by byte.
    const cells = Array.from({ length: 4700 }, (_, k) => `"cell ${k}, ${'z'.repeat(1000)}\n"`).join(',');
    const huge = Buffer.from(`a,b\r\n${cells}\r\nlast,row\r\n`);
    expect(huge.length).toBeGreaterThan(MAX_SCAN_BYTES);
    const hugeRun = run([huge], comma, true);
    expectSameOutcome(hugeRun, run([huge], comma, false));
    expect(hugeRun.records.map((r) => r.count)).toEqual([2, 4700, 2]);
    // It starts on line 2 and holds 4700 line breaks.
    expect(hugeRun.records[2].line).toBe(3 + 4700);
  });

  it('reads a buffer too large for the scanner’s memory byte by byte (the MAX_SCAN_BYTES guard)', () => {
    // One 9 MB record of 1-byte fields: listing its separators would run past the scanner's memory, so the
    // parser must not hand it over (held back, it is rescanned at 1, 2, 4 and 8 MB, then at the end).
    const data = Buffer.from(`${'a,'.repeat(4.5 * PIECE)}end\nx,y\n`);
    const limits = { maxRowBytes: 32 * PIECE, maxColumns: 8 * PIECE };
    const summary = (simd: boolean) => {
      const records: { count: number; line: number; last: string }[] = [];
      const p = new RecordParser(
        byteOf(','),
        (r) => void records.push({ count: r.count, line: r.line, last: recordStrings(r).slice(-1)[0] }),
        limits,
        simd,
      );
      p.push(data);
      p.end();
      return records;
    };
    const simd = summary(true);
    expect(simd).toEqual(summary(false));
    expect(simd).toEqual([
      { count: 4.5 * PIECE + 1, line: 1, last: 'end' },
      { count: 2, line: 2, last: 'y' },
    ]);
  });

  it("falls back for a parser fed from another parser's record handler, and both read as when run alone", () => {
    const comma = byteOf(',');
    const memory = scanMemory();
    // The inner file is carried, cut at arbitrary points, in field 1 of the outer file's records.
    const inner = Buffer.from(contacts(200).join(''));
    const pieces = splitAt(
      inner,
      Array.from({ length: 60 }, (_, k) => (k * 7919) % inner.length),
    );
    const outer = Buffer.from(
      pieces.map((c, i) => `${i},"${c.toString('utf8').replace(/"/g, '""')}",tail ${i}\r\n`).join(''),
    );

    const innerRecords: Rec[] = [];
    const innerPaths: boolean[] = [];
    const innerParser = new RecordParser(comma, (r) => {
      innerPaths.push(r.ends.buffer === memory);
      innerRecords.push(snapshot(r));
    });
    const outerRecords: Rec[] = [];
    const outerPaths: boolean[] = [];
    const outerParser = new RecordParser(comma, (r) => {
      outerPaths.push(r.ends.buffer === memory);
      innerParser.push(Buffer.from(fieldString(r, 1)));
      // Taken after the inner push: a scan by the inner parser would have overwritten this record's list.
      outerRecords.push(snapshot(r));
    });
    outerParser.push(outer);
    outerParser.end();
    innerParser.end();

    expect(outerRecords).toEqual(run([outer], comma, true).records);
    let aloneIndexed = 0;
    const alone = run(pieces, comma, true, {
      onEach: (r) => void (r.ends.buffer === memory && aloneIndexed++),
    });
    expect(innerRecords).toEqual(alone.records);
    expect(innerRecords).toHaveLength(201);
    // The outer parser used the pre-pass; the inner one read every byte nested, but not when run alone.
    expect(outerPaths.every(Boolean)).toBe(true);
    expect(innerPaths.some(Boolean)).toBe(false);
    expect(aloneIndexed).toBeGreaterThan(100);
  });

  it('frees the scanner when a record handler throws', () => {
    const p = new RecordParser(byteOf(','), () => {
      throw new Error('handler failed');
    });
    expect(() => p.push(Buffer.from('a,b\nc,d\n'))).toThrow('handler failed');
    expect(scanner().busy).toBe(false);
    let indexed = 0;
    const memory = scanMemory();
    new RecordParser(byteOf(','), (r) => void (r.ends.buffer === memory && indexed++)).push(
      Buffer.from('a,b\n'),
    );
    expect(indexed).toBe(1);
  });
});
