import { DateGroups, voteDate } from './dates';

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
