import { describe, expect, it } from '@jest/globals';
import type { RunTotals } from '@csv-mapper/contracts';
import { alreadyExported } from './already-exported';

const base: RunTotals = {
  rowsInFile: 20,
  rowsRead: 20,
  rowsWritten: 20,
  rowsSkipped: 0,
  skipped: [],
  warningCount: 0,
  unmappableCharacters: 0,
  columns: [],
} as unknown as RunTotals;

describe('rows already exported in words', () => {
  it('names each earlier run with its day and who ran it', () => {
    const s = alreadyExported({
      ...base,
      rowsAlreadyExported: 13,
      alreadyExportedFrom: [
        { runId: 'a', at: '2026-10-03T09:15:00Z', by: { userId: 'u', name: 'ana' }, rows: 12 },
        { runId: 'b', at: '2026-11-01T10:00:00Z', by: null, rows: 1 },
      ],
    });
    expect(s).toEqual({
      rows: 13,
      lines: ['12 rows were exported on 3 Oct 2026 by ana', '1 row was exported on 1 Nov 2026'],
      skipped: 0,
    });
  });

  it('counts the rows a skip left out, and says nothing without such rows', () => {
    const s = alreadyExported({
      ...base,
      rowsWritten: 8,
      rowsAlreadyExported: 12,
      skipped: [{ reason: 'alreadyExported', rows: 12, message: 'x' }],
      alreadyExportedFrom: [],
    });
    expect(s?.skipped).toBe(12);
    expect(alreadyExported({ ...base, rowsAlreadyExported: 0 })).toBeNull();
    expect(alreadyExported(undefined)).toBeNull();
  });
});
