// The output side's decisions around a run: which settings it writes with ("match the template" takes
// the template file's delimiter, BOM, line ending and encoding), and the control totals a person checks
// afterwards (rows read, written and skipped with reasons, sums per amount/number column). Shared by the
// api, the worker and the command-line tool, so the same recipe and file give the same bytes and totals.
import type { OutputOptions, ResolvedOutputOptions, RunTotals, SkippedRows } from '@csv-mapper/contracts';
import { DELIMITERS } from './delimiters';
import type { ApplyOptions, ApplyStats } from './types';

/** The format of a template file, as its upload inspection found it. */
export interface TemplateFormat {
  delimiter: string;
  bom: boolean;
  lineEnding: '\r\n' | '\n';
  /** How the file was read; UTF-16 templates are matched in UTF-8 (the output encodings). */
  encoding: string;
}

/**
 * The settings a run writes with. `template` is the template file's format (null for a built-in template
 * or the command-line tool without one): with `matchTemplate` (the default) its delimiter, BOM, line
 * ending and encoding are used wherever `options` does not set them.
 */
export function resolveOutputOptions(
  options: OutputOptions | null | undefined,
  template: TemplateFormat | null,
): ResolvedOutputOptions {
  const o = options ?? {};
  const match = (o.matchTemplate ?? true) && template !== null;
  const t = match ? template : null;
  const tDelimiter = DELIMITERS.find((d) => d === t?.delimiter);
  const encoding = o.encoding ?? (t?.encoding === 'windows-1252' ? 'windows-1252' : 'utf-8');
  return {
    delimiter: o.delimiter ?? tDelimiter ?? ',',
    lineEnding: o.lineEnding ?? t?.lineEnding ?? '\r\n',
    // Windows-1252 has no byte order mark.
    bom: encoding === 'windows-1252' ? false : (o.bom ?? t?.bom ?? false),
    encoding,
    quoteStyle: o.quoteStyle ?? 'minimal',
    formulaProtection: o.formulaProtection ?? true,
    matchedTemplate: match,
  };
}

/** The engine options for resolved settings. */
export function writeOptionsOf(r: ResolvedOutputOptions): ApplyOptions {
  return {
    delimiter: r.delimiter,
    lineEnding: r.lineEnding,
    bom: r.bom,
    encoding: r.encoding,
    quoteStyle: r.quoteStyle,
    formulaProtection: r.formulaProtection,
  };
}

/**
 * A run's control totals. `rowsInFile` is what the upload counted; rows not read were cut by the row cap
 * (`limit` says which: the plan's rows per file or the monthly quota).
 */
export function runTotals(
  stats: ApplyStats,
  rowsInFile: number,
  limit: 'rowLimit' | 'monthlyQuota' | null = null,
): RunTotals {
  const inFile = Math.max(rowsInFile, stats.rowsIn);
  const skippedRows = Math.max(0, inFile - stats.rowsOut);
  const rows = (n: number) => `${n} row${n === 1 ? ' was' : 's were'}`;
  const skipped: SkippedRows[] = [];
  const deleted = stats.corrections?.rowsDeleted ?? 0;
  if (deleted > 0) {
    skipped.push({
      reason: 'deletedInReview',
      rows: deleted,
      message: `${rows(deleted)} deleted in the review.`,
    });
  }
  const seen = stats.alreadyExported ?? 0;
  // Rows read and written that an earlier run exported are counted, not skipped, unless they were left out.
  const leftOut = Math.max(0, stats.rowsIn - stats.rowsOut - deleted);
  if (leftOut > 0 && seen > 0) {
    skipped.push({
      reason: 'alreadyExported',
      rows: Math.min(leftOut, seen),
      message: `${rows(Math.min(leftOut, seen))} not written: an earlier run of this mapping exported them.`,
    });
  }
  const notRead = Math.max(0, inFile - stats.rowsIn);
  if (notRead > 0) {
    const reason = limit ?? 'rowLimit';
    skipped.push({
      reason,
      rows: notRead,
      message:
        reason === 'monthlyQuota'
          ? `${rows(notRead)} not written: the month's row quota ran out.`
          : `${rows(notRead)} not written: past the row limit of this run.`,
    });
  }
  return {
    rowsInFile: inFile,
    rowsRead: stats.rowsIn,
    rowsWritten: stats.rowsOut,
    rowsSkipped: skippedRows,
    skipped,
    warningCount: stats.warningCount,
    raggedRows: stats.raggedRows,
    unmappableCharacters: stats.unmappableCharacters,
    columns: stats.controlTotals,
    ...(stats.emptyColumns && stats.emptyColumns.length > 0 ? { emptyColumns: stats.emptyColumns } : {}),
    ...(stats.alreadyExported !== undefined ? { rowsAlreadyExported: stats.alreadyExported } : {}),
  };
}
