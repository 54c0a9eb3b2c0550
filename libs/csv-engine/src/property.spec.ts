// Property tests (fast-check). FC_RUNS=10000 for the nightly/bench mode; 500 by default.
import fc from 'fast-check';
import { parse as csvParse } from 'csv-parse/sync';
import { CsvEngineError } from './errors';
import { parseCsv } from './parse';
import { FC_RUNS, splitAt } from './test-helpers';
import { writeCsv } from './writer';
import type { Delimiter } from './sniff';

const unit = fc.constantFrom(
  'a',
  'b',
  'x',
  ' ',
  '"',
  ',',
  ';',
  '\t',
  '|',
  '\r',
  '\n',
  'é',
  '€',
  '😀',
  '1',
  '.',
);
const cell = fc.string({ unit, maxLength: 8 });
const matrix = fc
  .integer({ min: 1, max: 5 })
  .chain((cols) =>
    fc.array(fc.array(cell, { minLength: cols, maxLength: cols }), { minLength: 1, maxLength: 8 }),
  );
const delimiter = fc.constantFrom<Delimiter>(',', ';', '\t', '|');
const lineEnding = fc.constantFrom<'\r\n' | '\n'>('\r\n', '\n');

describe('properties', () => {
  it('write → parse is the identity for every delimiter and line ending', () => {
    fc.assert(
      fc.property(matrix, delimiter, lineEnding, (rows, d, nl) => {
        const text = writeCsv(rows, { delimiter: d, lineEnding: nl, formulaProtection: false });
        expect(parseCsv(text, { header: false, delimiter: d }).rows).toEqual(rows);
      }),
      { numRuns: FC_RUNS },
    );
  });

  it('the parse is the same for any chunking of the bytes (every split position for small inputs)', () => {
    fc.assert(
      fc.property(
        matrix,
        delimiter,
        lineEnding,
        fc.array(fc.nat(), { maxLength: 6 }),
        (rows, d, nl, cuts) => {
          const bytes = Buffer.from(
            writeCsv(rows, { delimiter: d, lineEnding: nl, formulaProtection: false }),
          );
          const whole = parseCsv(bytes, { header: false, delimiter: d }).rows;
          expect(
            parseCsv(
              splitAt(
                bytes,
                cuts.map((c) => c % (bytes.length + 1)),
              ),
              { header: false, delimiter: d },
            ).rows,
          ).toEqual(whole);
          if (bytes.length <= 120) {
            for (let p = 1; p < bytes.length; p++) {
              expect(parseCsv(splitAt(bytes, [p]), { header: false, delimiter: d }).rows).toEqual(whole);
            }
          }
        },
      ),
      { numRuns: Math.max(50, Math.floor(FC_RUNS / 5)) },
    );
  });

  it('sniffing, header detection and decoding do not depend on chunking either', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.array(fc.nat(), { maxLength: 4 }), (raw, cuts) => {
        const bytes = Buffer.from(raw);
        const run = (input: Buffer | Buffer[]) => {
          try {
            return parseCsv(input);
          } catch (e) {
            return (e as CsvEngineError).code;
          }
        };
        expect(
          run(
            splitAt(
              bytes,
              cuts.map((c) => c % (bytes.length + 1)),
            ),
          ),
        ).toEqual(run(bytes));
      }),
      { numRuns: FC_RUNS },
    );
  });

  it('random bytes never throw anything but the engine’s typed errors', () => {
    const textish = fc.array(
      fc.constantFrom(
        0x22,
        0x2c,
        0x3b,
        0x0a,
        0x0d,
        0x61,
        0xc3,
        0xa9,
        0xff,
        0xfe,
        0x00,
        0xef,
        0xbb,
        0xbf,
        0x50,
        0x4b,
      ),
      { maxLength: 300 },
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          textish.map((a) => Uint8Array.from(a)),
        ),
        (raw) => {
          try {
            parseCsv(Buffer.from(raw));
          } catch (e) {
            expect(e).toBeInstanceOf(CsvEngineError);
            expect(typeof (e as CsvEngineError).code).toBe('string');
            expect((e as CsvEngineError).message.length).toBeGreaterThan(10);
          }
        },
      ),
      { numRuns: FC_RUNS },
    );
  });
});

describe('differential: our parse equals csv-parse on generated files', () => {
  /** Writes a file independently of our writer: random quoting of safe fields, quoting where required. */
  function render(rows: string[][], d: string, nl: string, quoteAll: boolean[]): string {
    return (
      rows
        .map((r, i) =>
          r
            .map((v) =>
              quoteAll[i % quoteAll.length] ||
              (v === '' && r.length === 1) ||
              /["\r\n]/.test(v) ||
              v.includes(d)
                ? `"${v.replace(/"/g, '""')}"`
                : v,
            )
            .join(d),
        )
        .join(nl) + nl
    );
  }

  it('matches record for record', () => {
    fc.assert(
      fc.property(
        matrix,
        delimiter,
        fc.constantFrom('\r\n', '\n'),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
        (rows, d, nl, quoteAll) => {
          const text = render(rows, d, nl, quoteAll);
          const theirs = csvParse(text, {
            delimiter: d,
            relax_column_count: true,
            skip_empty_lines: true,
            bom: true,
            record_delimiter: nl,
          }) as string[][];
          expect(parseCsv(text, { header: false, delimiter: d }).rows).toEqual(theirs);
        },
      ),
      { numRuns: FC_RUNS },
    );
  });
});
