// The one-pass amount writer must write exactly what the general parse + write does.
import fc from 'fast-check';
import { NumberScratch, parseSimpleNumber, writeNumber, writeSimpleNumber } from './numbers';
import { FC_RUNS } from './test-helpers';
import { ByteSink } from './writer';

function slow(text: string, dec: number, decimals: number): { out: string; n: NumberScratch } | null {
  const b = Buffer.from(text, 'latin1');
  const n = new NumberScratch();
  if (!parseSimpleNumber(b, 0, b.length, dec, n)) return null;
  const sink = new ByteSink(64);
  const copy = { intVal: n.intVal, micro: n.micro, neg: n.neg, intLen: n.intLen, fracLen: n.fracLen };
  writeNumber(sink, n, decimals, false);
  Object.assign(n, copy); // the sums read the value as parsed
  return { out: sink.buf.toString('latin1', 0, sink.pos), n };
}

function fast(text: string, dec: number, decimals: number): { out: string; n: NumberScratch } | null {
  const b = Buffer.from(text, 'latin1');
  const n = new NumberScratch();
  const sink = new ByteSink(64);
  sink.pos = 3; // not at the start of the buffer, as in a row
  if (!writeSimpleNumber(sink, b, 0, b.length, dec, decimals, n)) {
    expect(sink.pos).toBe(3); // nothing written
    return null;
  }
  return { out: sink.buf.toString('latin1', 3, sink.pos), n };
}

describe('writeSimpleNumber', () => {
  it.each([
    ['1.234,56', 0x2c, 2, '1234.56'],
    ['-678,4', 0x2c, 2, '-678.40'],
    ['-0,00', 0x2c, 2, '0.00'],
    ['007', 0x2e, 2, '7.00'],
    ['0,5', 0x2c, 2, '0.50'],
    ['12,', 0x2c, -1, '12'],
    ['1,234,567.891', 0x2e, -1, '1234567.891'],
    ['3', 0x2e, 0, '3'],
  ])('%s → %s', (text, dec, decimals, expected) => {
    expect(fast(text, dec, decimals)?.out).toBe(expected);
    expect(slow(text, dec, decimals)?.out).toBe(expected);
  });

  it.each([
    ['12,345', 0x2c, 2], // three decimals: needs rounding
    ['1.23.4', 0x2c, 2], // bad group
    ['€12', 0x2e, 2], // currency mark
    ['1234567890123456', 0x2e, 2], // 16 integer digits: summed with BigInt
    ['1,5', 0x2e, 2], // a group of one digit
  ])('leaves %s to the general path', (text, dec, decimals) => {
    expect(fast(text, dec, decimals)).toBeNull();
  });

  it('property: same output and value as parse + write whenever it takes a value', () => {
    const unit = fc.constantFrom('0', '1', '5', '9', '.', ',', '-', ' ', '€');
    let taken = 0;
    fc.assert(
      fc.property(
        fc.string({ unit, maxLength: 14 }),
        fc.constantFrom(0x2c, 0x2e),
        fc.constantFrom(-1, 0, 2, 4),
        (text, dec, decimals) => {
          const f = fast(text, dec, decimals);
          const s = slow(text, dec, decimals);
          if (f === null) return; // the general path handles it, as before
          taken++;
          expect(s).not.toBeNull();
          expect(f.out).toBe(s?.out);
          for (const k of ['neg', 'intLen', 'fracLen', 'intVal', 'micro'] as const)
            expect(f.n[k]).toBe(s?.n[k]);
        },
      ),
      { numRuns: FC_RUNS * 4 },
    );
    expect(taken).toBeGreaterThan(FC_RUNS / 10); // the one-pass path was really compared
  });
});
