import type { RunTotals } from '@csv-mapper/contracts';
import { plural } from '../../../lib/plural';

// Rows an earlier run of the saved mapping exported (issue 30), in words for the result screen:
// "12 rows were exported on 3 Oct 2026 by ana".

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

export interface AlreadyExportedSummary {
  rows: number;
  /** One line per earlier run, oldest first. */
  lines: string[];
  /** Rows left out of this file (the mapping's duplicates mode is skip). */
  skipped: number;
}

export function alreadyExported(totals: RunTotals | undefined): AlreadyExportedSummary | null {
  const rows = totals?.rowsAlreadyExported ?? 0;
  if (!totals || rows === 0) return null;
  const lines = (totals.alreadyExportedFrom ?? []).map(
    (r) =>
      `${plural(r.rows, 'row')} ${r.rows === 1 ? 'was' : 'were'} exported on ${day(r.at)}${r.by ? ` by ${r.by.name}` : ''}`,
  );
  const skipped = totals.skipped.find((s) => s.reason === 'alreadyExported')?.rows ?? 0;
  return { rows, lines, skipped };
}
