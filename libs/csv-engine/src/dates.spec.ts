import {
  compileOutput,
  date10Moves,
  moveDate10,
  readDate10,
  voteDate,
  writeDate,
  DateGroups,
  type Date10Moves,
  type DateOrder,
  type Ymd,
} from './dates';
import { ByteSink } from './writer';

function text(d: Ymd, order: DateOrder): string {
  const p = (n: number, w: number): string => String(n).padStart(w, '0');
  if (order === 'YMD') return `${p(d.y, 4)}-${p(d.m, 2)}/${p(d.d, 2)}`;
  return order === 'DMY'
    ? `${p(d.d, 2)}.${p(d.m, 2)}/${p(d.y, 4)}`
    : `${p(d.m, 2)}/${p(d.d, 2)} ${p(d.y, 4)}`;
}

describe('dates: the 10-byte fast path', () => {
  it('moving the digits of a 10-byte date writes what formatting the parsed date writes', () => {
    const outputs = ['MM/DD/YYYY', 'YYYY-MM-DD', 'DD.MM.YY', 'YYYYMMDD', 'DD/MM/YYYY 00:00'];
    let checked = 0;
    for (const order of ['DMY', 'MDY', 'YMD'] as DateOrder[]) {
      for (const output of outputs) {
        const codes = compileOutput(output);
        const moves = date10Moves(codes, order);
        expect(moves).not.toBeNull();
        for (const y of [99, 1999, 2000, 2024]) {
          for (let m = 1; m <= 12; m++) {
            for (let d = 1; d <= 31; d++) {
              const input = Buffer.from(`xx${text({ y, m, d }, order)}yy`);
              const read: Ymd = { y: 0, m: 0, d: 0 };
              if (!readDate10(input, 2, order, read)) continue;
              const formatted = new ByteSink(64);
              writeDate(formatted, codes, read);
              const moved = new ByteSink(64);
              moveDate10(
                moved,
                moves as Date10Moves,
                new DataView(input.buffer, input.byteOffset, input.length),
                2,
              );
              expect(moved.buf.toString('latin1', 0, moved.pos)).toBe(
                formatted.buf.toString('latin1', 0, formatted.pos),
              );
              checked++;
            }
          }
        }
      }
    }
    // 3 orders × 5 outputs × the valid days of 99, 1999, 2000 (leap) and 2024 (leap)
    expect(checked).toBe(3 * 5 * (365 * 2 + 366 * 2));
  });

  it('has no fast path for outputs whose width varies (M, D)', () => {
    expect(date10Moves(compileOutput('M/D/YYYY'), 'DMY')).toBeNull();
    expect(date10Moves(compileOutput('D.MM.YYYY'), 'MDY')).toBeNull();
  });
});

describe('dates: voting on a sample', () => {
  it('votes a 10-byte date as the general reader does', () => {
    const values: string[] = [];
    for (const a of ['01', '12', '13', '31', '00', '1x', '99'])
      for (const b of ['01', '12', '13', '31'])
        for (const sep of ['/', '.', '-', ' ', ',', ':'])
          values.push(`${a}${sep}${b}${sep}2024`, `2024${sep}${a}${sep}${b}`, `${a}${sep}${b}${sep}20x4`);
    values.push('2024-01-1x', 'abcdefghij', '1234567890', '12/05/2024');
    const g = new DateGroups();
    let tenBytes = 0;
    for (const v of values) {
      const fast = Buffer.from(v);
      // A leading space makes it 11 bytes: the general reader, which skips leading spaces.
      const general = Buffer.from(' ' + v);
      if (fast.length === 10) tenBytes++;
      expect([v, voteDate(fast, 0, fast.length, g)]).toEqual([v, voteDate(general, 0, general.length, g)]);
    }
    expect(tenBytes).toBe(values.length);
  });
});
