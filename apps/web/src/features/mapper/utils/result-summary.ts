// What the result screen tells an accountant about a run (issue 20): rows in the file, read, written and
// skipped (with reasons), characters the encoding lacks, and whether each amount column's sum read equals
// the sum written. An answer without `totals` (older job records) is summarised from its row counts.
import type { ControlTotal, RunTotals } from '@csv-mapper/contracts';

export interface RowSummary {
  inFile: number;
  read: number;
  written: number;
  skipped: { message: string; rows: number }[];
}

const LIMIT_MESSAGE: Record<'monthlyQuota' | 'rows', string> = {
  rows: "Rows past your plan's rows-per-file limit were not written.",
  monthlyQuota: "Rows past this month's remaining allowance were not written.",
};

export function rowSummary(r: {
  rowsProcessed: number;
  totalRowsInFile: number;
  limitType: 'monthlyQuota' | 'rows' | null;
  totals?: RunTotals;
}): RowSummary {
  const t = r.totals;
  if (t) {
    return {
      inFile: t.rowsInFile,
      read: t.rowsRead,
      written: t.rowsWritten,
      skipped: t.skipped.filter((s) => s.rows > 0).map((s) => ({ message: s.message, rows: s.rows })),
    };
  }
  const missing = r.totalRowsInFile - r.rowsProcessed;
  return {
    inFile: r.totalRowsInFile,
    read: r.rowsProcessed,
    written: r.rowsProcessed,
    skipped:
      missing > 0
        ? [{ message: r.limitType ? LIMIT_MESSAGE[r.limitType] : 'Not written.', rows: missing }]
        : [],
  };
}

/** Decimal strings compared exactly (the engine prints both sums with the same rules). */
function canonical(n: string): string {
  const t = n.trim().replace(/^\+/, '');
  const neg = t.startsWith('-');
  const [int = '0', frac = ''] = (neg ? t.slice(1) : t).split('.');
  const i = int.replace(/^0+(?=\d)/, '') || '0';
  const f = frac.replace(/0+$/, '');
  const s = f ? `${i}.${f}` : i;
  return neg && s !== '0' ? `-${s}` : s;
}

export type TotalCheck = 'match' | 'differs';

/** 'match' when the sum written equals the sum read (so the accountant can tick it). */
export function checkTotal(t: Pick<ControlTotal, 'sourceTotal' | 'outputTotal'>): TotalCheck {
  return canonical(t.sourceTotal) === canonical(t.outputTotal) ? 'match' : 'differs';
}
