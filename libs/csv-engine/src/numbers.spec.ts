// The usual amount shapes through the simple parse + plain-text write (the path every amount column takes first).
import { NumberScratch, parseSimpleNumber, writeNumber } from './numbers';
import { ByteSink } from './writer';

function parseAndWrite(text: string, dec: number, decimals: number): string | null {
  const b = Buffer.from(text, 'latin1');
  const n = new NumberScratch();
  if (!parseSimpleNumber(b, 0, b.length, dec, n)) return null;
  const sink = new ByteSink(64);
  writeNumber(sink, n, decimals, false);
  return sink.buf.toString('latin1', 0, sink.pos);
}

describe('parseSimpleNumber + writeNumber', () => {
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
    expect(parseAndWrite(text, dec, decimals)).toBe(expected);
  });

  it.each([
    ['1.23.4', 0x2c], // bad group
    ['€12', 0x2e], // currency mark: the general parser's job
    ['1,5', 0x2e], // a group of one digit
  ])('leaves %s to the general parser', (text, dec) => {
    expect(parseAndWrite(text, dec, 2)).toBeNull();
  });
});
