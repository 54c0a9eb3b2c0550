import { describe, expect, it } from '@jest/globals';
import { splitWarnings } from './warnings';

describe('splitWarnings', () => {
  const note = {
    row: 0,
    column: 'Date',
    value: '',
    reason:
      'Every date in the column could be day-first or month-first; read as month-first (MM/DD) from the file’s locale.',
  };
  const cell = { row: 3, column: 'Amount', value: 'n/a', reason: 'Not a number' };

  it('keeps notes on a whole column apart from problems with cells', () => {
    const split = splitWarnings([note, cell], 2);
    expect(split.columnNotes).toEqual([note]);
    expect(split.cellWarnings).toEqual([cell]);
    expect(split.cellCount).toBe(1);
  });

  it('counts the cell problems past the end of the list', () => {
    expect(splitWarnings([note, cell], 501).cellCount).toBe(500);
  });

  it('a run with only a column note has no cell problems', () => {
    expect(splitWarnings([note], 1)).toEqual({ columnNotes: [note], cellWarnings: [], cellCount: 0 });
  });
});
