import { describe, expect, it } from '@jest/globals';
import { checkTotal, rowSummary } from './result-summary';

describe('result summary', () => {
  it("uses the api's totals, dropping reasons without rows", () => {
    expect(
      rowSummary({
        rowsProcessed: 8,
        totalRowsInFile: 10,
        limitType: 'rows',
        totals: {
          rowsInFile: 10,
          rowsRead: 8,
          rowsWritten: 8,
          rowsSkipped: 2,
          skipped: [
            { reason: 'rowLimit', rows: 2, message: 'Rows past your plan limit were not written.' },
            { reason: 'monthlyQuota', rows: 0, message: 'unused' },
          ],
          warningCount: 0,
          raggedRows: 0,
          unmappableCharacters: 0,
          columns: [],
        },
      }),
    ).toEqual({
      inFile: 10,
      read: 8,
      written: 8,
      skipped: [{ message: 'Rows past your plan limit were not written.', rows: 2 }],
    });
  });

  it('summarises an answer without totals from its row counts', () => {
    expect(rowSummary({ rowsProcessed: 100, totalRowsInFile: 150, limitType: 'monthlyQuota' })).toEqual({
      inFile: 150,
      read: 100,
      written: 100,
      skipped: [{ message: "Rows past this month's remaining allowance were not written.", rows: 50 }],
    });
    expect(rowSummary({ rowsProcessed: 3, totalRowsInFile: 3, limitType: null }).skipped).toEqual([]);
  });

  it('ticks a column whose sums agree as decimals, and flags one that differs', () => {
    expect(checkTotal({ sourceTotal: '1234.50', outputTotal: '1234.5' })).toBe('match');
    expect(checkTotal({ sourceTotal: '-0.00', outputTotal: '0' })).toBe('match');
    expect(checkTotal({ sourceTotal: '007.10', outputTotal: '7.1' })).toBe('match');
    expect(checkTotal({ sourceTotal: '-12.5', outputTotal: '12.5' })).toBe('differs');
    expect(checkTotal({ sourceTotal: '10.004', outputTotal: '10.00' })).toBe('differs');
  });
});
