import { appliedOptionsOf, checkTotal, rowTotals, unencodableOf } from './result-summary';

describe('result summary', () => {
  it('uses the rows the api reports, dropping empty reasons', () => {
    expect(
      rowTotals({
        rowsProcessed: 8,
        totalRowsInFile: 10,
        limitType: null,
        rowTotals: {
          read: 10,
          written: 8,
          skipped: [
            { reason: 'Blank row', count: 2 },
            { reason: 'Other', count: 0 },
          ],
        },
      }),
    ).toEqual({ read: 10, written: 8, skipped: [{ reason: 'Blank row', count: 2 }] });
  });

  it('derives skipped rows from a plan limit when the answer has no breakdown', () => {
    expect(rowTotals({ rowsProcessed: 100, totalRowsInFile: 150, limitType: 'rows' })).toEqual({
      read: 150,
      written: 100,
      skipped: [{ reason: "Over your plan's rows-per-file limit", count: 50 }],
    });
    expect(rowTotals({ rowsProcessed: 3, totalRowsInFile: 3, limitType: null }).skipped).toEqual([]);
  });

  it('ticks a column whose sums agree as decimals, and flags one that differs', () => {
    expect(checkTotal({ sourceTotal: '1234.50', outputTotal: '1234.5' })).toBe('match');
    expect(checkTotal({ sourceTotal: '-0.00', outputTotal: '0' })).toBe('match');
    expect(checkTotal({ sourceTotal: '007.10', outputTotal: '7.1' })).toBe('match');
    expect(checkTotal({ sourceTotal: '-12.5', outputTotal: '12.5' })).toBe('differs');
    expect(checkTotal({ sourceTotal: '10.004', outputTotal: '10.00' })).toBe('differs');
  });

  it('reads unencodable characters and applied options when present, else nothing', () => {
    expect(unencodableOf({ unencodable: { count: 2, characters: ['€', 'ł'] } })).toEqual({
      count: 2,
      characters: ['€', 'ł'],
    });
    expect(unencodableOf({})).toBeNull();
    expect(appliedOptionsOf({ options: { delimiter: ';' } })).toEqual({ delimiter: ';' });
    expect(appliedOptionsOf({})).toBeUndefined();
  });
});
