import type { GridRow } from '../components/review-grid';
import type { TemplateRules } from '@csv-mapper/contracts';
import { checkColumnValue, type RuleProblem } from '@csv-mapper/rules';
import { cellPatch, toIssue, type CellPatch, type IssueLike, type ReviewIssue } from './review-model';

// A background run's problems as the issues API pages them (sorted by row): grouped into rows as pages
// arrive, with the user's edits and deletions kept as the patch the jobs API stores. Only the failing
// cells' values are known here; the rest of a row shows as unknown.

interface PagedRow {
  row: number;
  cells: Map<number, string>;
  issues: ReviewIssue[];
}

export class PagedReview {
  version = 0;
  nextCursor: string | null = null;
  started = false;
  /** Problems the api holds for the filter (from the last page), when it says. */
  total: number | undefined;
  private readonly list: PagedRow[] = [];
  private readonly byRow = new Map<number, PagedRow>();
  private readonly edits = new Map<number, Map<number, string>>();
  private readonly deleted = new Set<number>();
  private shown: PagedRow[] = [];

  constructor(
    readonly columns: string[],
    private readonly rules: TemplateRules = {},
  ) {}

  get done(): boolean {
    return this.started && this.nextCursor === null;
  }

  addPage(issues: IssueLike[], nextCursor: string | null, total?: number): void {
    this.started = true;
    if (total !== undefined) this.total = total;
    this.nextCursor = nextCursor;
    for (const w of issues) {
      const issue = toIssue(w);
      const col = this.columns.indexOf(issue.column);
      if (issue.row < 1 || col < 0) continue;
      let row = this.byRow.get(issue.row);
      if (!row) {
        row = { row: issue.row, cells: new Map(), issues: [] };
        this.byRow.set(issue.row, row);
        this.list.push(row);
      }
      row.cells.set(col, issue.value);
      row.issues.push(issue);
    }
    this.refresh();
  }

  private refresh(): void {
    this.shown = this.list.filter((r) => !this.deleted.has(r.row));
    this.version++;
  }

  count(): number {
    return this.shown.length;
  }

  value(index: number, col: number): string | undefined {
    const r = this.shown[index];
    if (!r) return undefined;
    return this.edits.get(r.row)?.get(col) ?? r.cells.get(col);
  }

  gridRow(index: number): GridRow | undefined {
    const r = this.shown[index];
    if (!r) return undefined;
    const edited = this.edits.get(r.row);
    return {
      row: r.row,
      cells: this.columns.map((_, c) => edited?.get(c) ?? r.cells.get(c)),
      issues: r.issues,
      edited: this.columns.map((_, c) => edited?.has(c) ?? false),
    };
  }

  /** The first rule `value` breaks in `col`, or null (unique needs the whole file: the rerun checks it). */
  check(col: number, value: string): RuleProblem | null {
    return checkColumnValue(value, this.rules[this.columns[col]])[0] ?? null;
  }

  /** Edits the cell at `index`; answers its value before. */
  edit(index: number, col: number, value: string): string | undefined {
    const r = this.shown[index];
    if (!r) return undefined;
    const before = this.value(index, col);
    let cells = this.edits.get(r.row);
    if (!cells) this.edits.set(r.row, (cells = new Map()));
    cells.set(col, value);
    const column = this.columns[col];
    r.issues = r.issues.filter((i) => i.column !== column);
    for (const p of checkColumnValue(value, this.rules[column])) {
      r.issues.push({ row: r.row, column, value, rule: p.rule, message: p.message });
    }
    this.version++;
    return before;
  }

  /** Every loaded cell of `col` holding `from` becomes `to`; answers how many. */
  applyToAll(col: number, from: string, to: string): number {
    let n = 0;
    this.shown.forEach((_, i) => {
      if (this.value(i, col) === from) {
        this.edit(i, col, to);
        n++;
      }
    });
    return n;
  }

  countValue(col: number, value: string): number {
    let n = 0;
    this.shown.forEach((_, i) => {
      if (this.value(i, col) === value) n++;
    });
    return n;
  }

  deleteRows(rows: number[]): void {
    rows.forEach((r) => this.deleted.add(r));
    this.refresh();
  }

  problems(): number {
    return this.shown.reduce((n, r) => n + r.issues.length, 0);
  }

  patch(): CellPatch {
    return cellPatch(this.edits, this.deleted, this.columns);
  }
}
