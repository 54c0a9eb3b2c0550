import type { TemplateRules } from '@csv-mapper/contracts';
import { checkColumnValue, csvCellText, type RuleProblem } from '@csv-mapper/rules';

// What the review grid shows and changes. Problems arrive as the engine's warnings (sync answer or the
// issues API); edits are a patch (row + column → value, deleted rows) that never rewrites what was read.
// For a sync run the whole output is in the browser, so the patch is applied here and the corrected file
// is built from the unchanged records' own text plus the edited ones written the way the engine writes.
// Rules, the formula guard and the cell writer are the engine's own (libs/rules); the reader below stays
// here: the engine's parser reads bytes (Node Buffers) in a stream, this one a string the browser holds,
// keeping each record's text so an unchanged record is written back byte for byte.

/** A failing cell: `row` is the 1-based data row, `column` the template column. */
export interface ReviewIssue {
  row: number;
  column: string;
  rule: string;
  value: string;
  message: string;
}

/** A warning as the contract carries it: issue 22 adds `rule` and `message` beside the older `reason`. */
export interface IssueLike {
  row: number;
  column: string;
  value: string;
  rule?: string;
  message?: string;
  reason?: string;
}

/** The rule name of a warning no template rule raised (a value a transform could not read), as the api counts it. */
export const TRANSFORM_RULE = 'other';

export function toIssue(w: IssueLike): ReviewIssue {
  return {
    row: w.row,
    column: w.column,
    value: w.value,
    rule: w.rule ?? TRANSFORM_RULE,
    message: w.message ?? w.reason ?? '',
  };
}

/** Edits and deleted rows as the jobs API takes them (`PATCH /api/jobs/:id/cells`). */
export interface CellPatch {
  edits: { row: number; column: string; value: string }[];
  deleteRows: number[];
}

/**
 * The patch of a review's edits (row → column index → value) and deleted rows: edits of deleted rows are
 * left out, deleted rows are sorted.
 */
export function cellPatch(
  edits: ReadonlyMap<number, ReadonlyMap<number, string>>,
  deleted: ReadonlySet<number>,
  columns: readonly string[],
): CellPatch {
  const out: CellPatch['edits'] = [];
  for (const [row, cells] of edits) {
    if (deleted.has(row)) continue;
    for (const [col, value] of cells) out.push({ row, column: columns[col], value });
  }
  return { edits: out, deleteRows: [...deleted].sort((a, b) => a - b) };
}

export interface ReviewFilter {
  column?: string;
  rule?: string;
  /** All rows, not only those with problems. */
  showAll?: boolean;
}

export interface CsvRecord {
  cells: string[];
  /** The record's text as written (without its line ending). */
  raw: string;
}

export interface ParsedCsv {
  header: CsvRecord;
  records: CsvRecord[];
  lineEnding: '\r\n' | '\n';
  bom: boolean;
}

/** RFC 4180 reading of the engine's own output (quotes doubled, any line ending). */
export function parseCsv(text: string, delimiter = ','): ParsedCsv {
  const bom = text.charCodeAt(0) === 0xfeff;
  const src = bom ? text.slice(1) : text;
  const lineEnding = /\r\n/.test(src.slice(0, 65536)) || !/\n/.test(src) ? '\r\n' : '\n';
  const all: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let start = 0;
  let i = 0;
  const n = src.length;
  const endRecord = (end: number) => {
    cells.push(cell);
    all.push({ cells, raw: src.slice(start, end) });
    cells = [];
    cell = '';
  };
  while (i < n) {
    const ch = src[i];
    if (ch === '"' && cell === '') {
      // Quoted cell: read to the closing quote.
      i++;
      while (i < n) {
        if (src[i] === '"') {
          if (src[i + 1] === '"') {
            cell += '"';
            i += 2;
          } else {
            i++;
            break;
          }
        } else cell += src[i++];
      }
      continue;
    }
    if (ch === delimiter) {
      cells.push(cell);
      cell = '';
      i++;
    } else if (ch === '\r' || ch === '\n') {
      endRecord(i);
      i += ch === '\r' && src[i + 1] === '\n' ? 2 : 1;
      start = i;
    } else {
      cell += ch;
      i++;
    }
  }
  if (start < n) endRecord(n);
  const [header = { cells: [], raw: '' }, ...records] = all;
  return { header, records, lineEnding, bom };
}

export interface ReviewCounts {
  /** Rows that still have at least one problem (deleted rows excluded). */
  problemRows: number;
  problems: number;
  editedCells: number;
  deletedRows: number;
}

/**
 * The sync run's output in memory with its problems and the patch on top. Mutating methods bump
 * `version` so a React view can re-render on it.
 */
export class SyncReview {
  readonly columns: string[];
  readonly rowCount: number;
  /** Warnings about a whole column or row (row 0 or no column): shown above the grid, not in it. */
  readonly general: ReviewIssue[];
  version = 0;
  private readonly parsed: ParsedCsv;
  private readonly issues = new Map<number, ReviewIssue[]>();
  private readonly edits = new Map<number, Map<number, string>>();
  private readonly deleted = new Set<number>();

  constructor(
    csv: string,
    warnings: IssueLike[],
    private readonly rules: TemplateRules = {},
    private readonly delimiter = ',',
    private readonly protect = true,
  ) {
    this.parsed = parseCsv(csv, delimiter);
    this.columns = this.parsed.header.cells;
    this.rowCount = this.parsed.records.length;
    this.general = [];
    for (const w of warnings) {
      const issue = toIssue(w);
      // a row an earlier run of the saved mapping exported (issue 30) is marked on its first cell
      if (issue.rule === 'alreadyExported' && issue.column === '' && this.columns.length > 0)
        issue.column = this.columns[0];
      if (issue.row < 1 || issue.row > this.rowCount || !this.columns.includes(issue.column)) {
        this.general.push(issue);
        continue;
      }
      const list = this.issues.get(issue.row);
      if (list) list.push(issue);
      else this.issues.set(issue.row, [issue]);
    }
  }

  /** The cell's current value (edit first). `row` is 1-based. */
  value(row: number, col: number): string {
    return this.edits.get(row)?.get(col) ?? this.parsed.records[row - 1]?.cells[col] ?? '';
  }

  isEdited(row: number, col: number): boolean {
    return this.edits.get(row)?.has(col) ?? false;
  }

  issuesOf(row: number): ReviewIssue[] {
    return this.issues.get(row) ?? [];
  }

  /** Rule names among the current problems, for the filter. */
  ruleNames(): string[] {
    const names = new Set<string>();
    for (const [row, list] of this.issues) if (!this.deleted.has(row)) list.forEach((i) => names.add(i.rule));
    return [...names].sort();
  }

  /** Row numbers the grid shows for this filter, in file order. */
  rows(filter: ReviewFilter = {}): number[] {
    const out: number[] = [];
    if (filter.showAll && !filter.column && !filter.rule) {
      for (let r = 1; r <= this.rowCount; r++) if (!this.deleted.has(r)) out.push(r);
      return out;
    }
    const rows = filter.showAll
      ? [...Array(this.rowCount).keys()].map((i) => i + 1)
      : [...this.issues.keys()];
    if (!filter.showAll) rows.sort((a, b) => a - b);
    for (const r of rows) {
      if (this.deleted.has(r)) continue;
      const list = this.issues.get(r) ?? [];
      if (list.length === 0 && !filter.showAll) continue;
      if (filter.column || filter.rule) {
        const hit = list.some(
          (i) => (!filter.column || i.column === filter.column) && (!filter.rule || i.rule === filter.rule),
        );
        if (!hit) continue;
      }
      out.push(r);
    }
    return out;
  }

  /** The first row before `row` (deleted rows left out) holding `value` in `col`, or 0: the engine's unique. */
  private firstRowWith(row: number, col: number, value: string): number {
    for (let r = 1; r < row; r++) if (!this.deleted.has(r) && this.value(r, col) === value) return r;
    return 0;
  }

  /** Every rule `value` breaks in this cell, as the engine reports them. */
  problems(row: number, col: number, value: string): RuleProblem[] {
    const column = this.columns[col];
    return checkColumnValue(value, this.rules[column], (v) => this.firstRowWith(row, col, v));
  }

  /** The first rule `value` breaks in this cell, or null (the hint as the user types). */
  check(row: number, col: number, value: string): RuleProblem | null {
    return this.problems(row, col, value)[0] ?? null;
  }

  /** Sets one cell; its problems are replaced by what the rules say about the new value. */
  edit(row: number, col: number, value: string): void {
    const original = this.parsed.records[row - 1]?.cells[col];
    if (original === undefined) return;
    let cells = this.edits.get(row);
    if (value === original) cells?.delete(col);
    else {
      if (!cells) this.edits.set(row, (cells = new Map()));
      cells.set(col, value);
    }
    if (cells && cells.size === 0) this.edits.delete(row);
    const column = this.columns[col];
    const kept = (this.issues.get(row) ?? []).filter((i) => i.column !== column);
    for (const p of this.problems(row, col, value))
      kept.push({ row, column, value, rule: p.rule, message: p.message });
    if (kept.length > 0) this.issues.set(row, kept);
    else this.issues.delete(row);
    this.version++;
  }

  /** Every cell of `col` whose current value is `from` becomes `to`; answers how many changed. */
  applyToAll(col: number, from: string, to: string): number {
    let n = 0;
    for (let r = 1; r <= this.rowCount; r++) {
      if (!this.deleted.has(r) && this.value(r, col) === from) {
        this.edit(r, col, to);
        n++;
      }
    }
    return n;
  }

  /** How many cells of `col` (outside deleted rows) hold `value`. */
  countValue(col: number, value: string): number {
    let n = 0;
    for (let r = 1; r <= this.rowCount; r++) if (!this.deleted.has(r) && this.value(r, col) === value) n++;
    return n;
  }

  deleteRows(rows: number[]): void {
    for (const r of rows) if (r >= 1 && r <= this.rowCount) this.deleted.add(r);
    this.version++;
  }

  restoreRows(): void {
    this.deleted.clear();
    this.version++;
  }

  counts(): ReviewCounts {
    let problemRows = 0;
    let problems = 0;
    for (const [row, list] of this.issues) {
      if (this.deleted.has(row)) continue;
      problemRows++;
      problems += list.length;
    }
    let editedCells = 0;
    for (const [row, cells] of this.edits) if (!this.deleted.has(row)) editedCells += cells.size;
    return { problemRows, problems, editedCells, deletedRows: this.deleted.size };
  }

  /** The patch as the jobs API takes it (`PATCH /api/jobs/:id/cells`). */
  patch(): CellPatch {
    return cellPatch(this.edits, this.deleted, this.columns);
  }

  /** The corrected file: unchanged records keep their bytes, edited ones are written again. */
  toCsv(): string {
    const { header, records, lineEnding, bom } = this.parsed;
    const parts: string[] = [header.raw];
    records.forEach((rec, i) => {
      const row = i + 1;
      if (this.deleted.has(row)) return;
      const cells = this.edits.get(row);
      if (!cells) parts.push(rec.raw);
      else {
        const values = rec.cells.map((v, c) => cells.get(c) ?? v);
        parts.push(
          values.length === 1 && values[0] === ''
            ? '""'
            : values.map((v) => csvCellText(v, this.delimiter, this.protect)).join(this.delimiter),
        );
      }
    });
    return (bom ? '\ufeff' : '') + parts.join(lineEnding) + lineEnding;
  }
}
