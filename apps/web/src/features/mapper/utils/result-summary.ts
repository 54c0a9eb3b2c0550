// What the result screen tells an accountant about a run (issue 20): rows read, written and skipped (with
// reasons), and whether each amount column's sum read equals the sum written. Reads the api's answer
// loosely: fields an older answer lacks are derived from what it has.
import type { ControlTotal } from '@csv-mapper/contracts';
import type { AppliedOutputOptions } from './output-options';

export interface SkippedRows {
  reason: string;
  count: number;
}

export interface RowTotals {
  read: number;
  written: number;
  skipped: SkippedRows[];
}

/** The parts of a process answer / finished job the summary reads. */
export interface RunFigures {
  rowsProcessed: number;
  totalRowsInFile: number;
  limitType: 'monthlyQuota' | 'rows' | null;
  rowTotals?: { read?: number; written?: number; skipped?: SkippedRows[] } | null;
  rowsRead?: number;
  rowsWritten?: number;
  rowsSkipped?: SkippedRows[];
}

const LIMIT_REASON: Record<'monthlyQuota' | 'rows', string> = {
  rows: "Over your plan's rows-per-file limit",
  monthlyQuota: "Over this month's remaining row allowance",
};

export function rowTotals(r: RunFigures): RowTotals {
  const read = r.rowTotals?.read ?? r.rowsRead ?? r.totalRowsInFile;
  const written = r.rowTotals?.written ?? r.rowsWritten ?? r.rowsProcessed;
  const reported = r.rowTotals?.skipped ?? r.rowsSkipped;
  if (reported) return { read, written, skipped: reported.filter((s) => s.count > 0) };
  const missing = read - written;
  if (missing <= 0) return { read, written, skipped: [] };
  return {
    read,
    written,
    skipped: [{ reason: r.limitType ? LIMIT_REASON[r.limitType] : 'Not written', count: missing }],
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

/** Characters of the output the chosen encoding cannot hold (written as '?'), when the api counts them. */
export interface Unencodable {
  count: number;
  characters: string[];
}

export function unencodableOf(answer: object): Unencodable | null {
  const r = answer as {
    unencodable?: { count?: number; characters?: string[] } | null;
    unencodableCount?: number;
    unencodableCharacters?: string[];
  };
  const count = r.unencodable?.count ?? r.unencodableCount;
  if (count === undefined) return null;
  return { count, characters: r.unencodable?.characters ?? r.unencodableCharacters ?? [] };
}

/** The options the api says it applied, if it says. */
export function appliedOptionsOf(answer: object): AppliedOutputOptions | undefined {
  const r = answer as { options?: AppliedOutputOptions | null; outputOptions?: AppliedOutputOptions | null };
  return r.options ?? r.outputOptions ?? undefined;
}
