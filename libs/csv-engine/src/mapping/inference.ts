// Column inference: before output starts, columns read with `auto` (dates without an input pattern,
// numbers without a decimal separator, debit/credit) are sampled, each value votes, and the column's date
// order and decimal separator are decided — from the votes, or, when they cannot tell, from the rest of the
// file (date-hints.ts) and its locale. What was decided is reported per column (ApplyStats.inferred) with
// warnings for doubtful cases.
import { DateGroups, voteDate, type DateOrder } from '../dates';
import { voteDecimal } from '../numbers';
import type { RecordView } from '../parser';
import type { SourceInfo } from '../reader';
import type { ApplyOptions, ColumnInference, MappingPair, Transform } from '../types';
import { contentInto, type Span } from './cells';
import { FileHints } from './date-hints';
import { columnIndex } from './plan';

const DEFAULT_INFERENCE_ROWS = 10_000;
/**
 * Rows whose every cell feeds the date-order hints (date-hints.ts): enough to meet a day past the 12th
 * or a currency code, and a small fixed cost (the upload's inference reads 200 rows).
 */
const HINT_ROWS = 1_000;

/** What was decided for one data column. */
export interface Decided {
  dateOrder?: DateOrder;
  decimal?: number;
  fromLocale: boolean;
  mixedDates: boolean;
  ambiguous: boolean;
  /** What decided a date order the column could not tell itself ("the Currency column holds GBP"). */
  hint?: string;
}

/** A sampled data column and its votes. */
interface ProfileColumn {
  src: number;
  date: boolean;
  decimal: boolean;
  dmy: number;
  mdy: number;
  ymd: number;
  ambiguousDates: number;
  comma: number;
  point: number;
  ambiguousDecimals: number;
}

function needsDateSample(t: Transform | undefined): boolean {
  return t?.kind === 'date' && (t.input === undefined || t.input === 'auto');
}
function needsDecimalSample(t: Transform | undefined): boolean {
  if (!t) return false;
  if (t.kind === 'debitCredit') return true;
  if (t.kind === 'amount' || t.kind === 'number')
    return t.decimalSeparator === undefined || t.decimalSeparator === 'auto';
  return false;
}

/** The transform that reads the data column (the first of a chain). */
function firstOf(m: MappingPair): Transform | undefined {
  return Array.isArray(m.transform) ? m.transform[0] : m.transform;
}

/** Does any column need a sample before output starts? */
export function needsProfile(mappings: readonly MappingPair[]): boolean {
  return mappings.some((m) => needsDateSample(firstOf(m)) || needsDecimalSample(firstOf(m)));
}

/** The sampling pass: start() on the header, row() for each data row while it returns true, then decide(). */
export class ColumnProfile {
  private columns: ProfileColumn[] = [];
  private rows = 0;
  private readonly maxRows: number;
  private readonly groups = new DateGroups();
  private readonly cv: Span = { buf: Buffer.alloc(0), s: 0, e: 0 };
  /** Every column's hints of a date order, when a date column may need them (date-hints.ts). */
  private hints: FileHints | null = null;

  constructor(
    private readonly mappings: readonly MappingPair[],
    private readonly options: ApplyOptions,
  ) {
    this.maxRows = Math.max(1, options.inferenceRows ?? DEFAULT_INFERENCE_ROWS);
  }

  start(info: SourceInfo): void {
    const cols = new Map<number, ProfileColumn>();
    const get = (src: number): ProfileColumn => {
      let c = cols.get(src);
      if (!c) {
        c = {
          src,
          date: false,
          decimal: false,
          dmy: 0,
          mdy: 0,
          ymd: 0,
          ambiguousDates: 0,
          comma: 0,
          point: 0,
          ambiguousDecimals: 0,
        };
        cols.set(src, c);
      }
      return c;
    };
    for (const m of this.mappings) {
      const t = firstOf(m);
      if (needsDateSample(t)) get(columnIndex(info, m.dataColumn, m.templateColumn)).date = true;
      if (t?.kind === 'debitCredit') {
        get(columnIndex(info, t.debitColumn, m.templateColumn)).decimal = true;
        get(columnIndex(info, t.creditColumn, m.templateColumn)).decimal = true;
      } else if (needsDecimalSample(t)) get(columnIndex(info, m.dataColumn, m.templateColumn)).decimal = true;
    }
    this.columns = [...cols.values()];
    this.hints = this.columns.some((c) => c.date) ? new FileHints(info.headers) : null;
  }

  /** Counts one row's votes; false once the sample is complete. */
  row(r: RecordView): boolean {
    const g = this.groups;
    const cols = this.columns;
    for (let j = 0; j < cols.length; j++) {
      const c = cols[j];
      if (c.src >= r.count) continue;
      const v = contentInto(this.cv, r, c.src);
      if (v.s === v.e) continue;
      if (c.date) {
        switch (voteDate(v.buf, v.s, v.e, g)) {
          case 'DMY':
            c.dmy++;
            break;
          case 'MDY':
            c.mdy++;
            break;
          case 'YMD':
            c.ymd++;
            break;
          case 'ambiguous':
            c.ambiguousDates++;
            break;
          default:
        }
      }
      if (c.decimal) {
        const vote = voteDecimal(v.buf, v.s, v.e);
        if (vote === ',') c.comma++;
        else if (vote === '.') c.point++;
        else if (vote === 'thousands?') c.ambiguousDecimals++;
      }
    }
    const hints = this.hints;
    if (hints !== null && this.rows < HINT_ROWS) {
      const n = Math.min(r.count, hints.headers.length);
      for (let k = 0; k < n; k++) {
        const v = contentInto(this.cv, r, k);
        hints.add(k, v.buf, v.s, v.e);
      }
    }
    return ++this.rows < this.maxRows;
  }

  /** The decisions, by data column index. */
  decide(info: SourceInfo): Map<number, Decided> {
    const decided = new Map<number, Decided>();
    const cols = this.columns;
    const anyComma = cols.some((c) => c.decimal && c.comma > c.point);
    const decimalHint =
      this.options.locale?.decimalSeparator ?? (info.delimiter === ';' || anyComma ? ',' : '.');
    // Dates every one of which could be day- or month-first: the locale given, else the file's hints
    // (another date column, currency codes and marks, decimal commas, a `;` delimiter; date-hints.ts).
    const dateHint = (src: number): { order: DateOrder; reason: string } => {
      const given = this.options.locale?.dateOrder;
      if (given) return { order: given, reason: 'the locale given with the request says so' };
      const hint = this.hints?.decide(src, info.delimiter);
      if (hint?.decided) return hint;
      if (this.options.locale?.decimalSeparator === ',')
        return { order: 'DMY', reason: 'the locale given with the request uses a decimal comma' };
      return { order: 'MDY', reason: '' };
    };
    for (const c of cols) {
      const d: Decided = { fromLocale: false, mixedDates: false, ambiguous: false };
      if (c.date) {
        if (c.ymd > c.dmy + c.mdy) d.dateOrder = 'YMD';
        else if (c.dmy > 0 || c.mdy > 0) {
          d.dateOrder = c.dmy >= c.mdy ? 'DMY' : 'MDY';
          d.mixedDates = c.dmy > 0 && c.mdy > 0;
        } else if (c.ymd > 0) d.dateOrder = 'YMD';
        else {
          const hint = dateHint(c.src);
          d.dateOrder = hint.order;
          d.hint = hint.reason;
          d.fromLocale = true;
          d.ambiguous = c.ambiguousDates > 0;
        }
      }
      if (c.decimal) {
        if (c.comma > 0 || c.point > 0) d.decimal = c.comma > c.point ? 0x2c : 0x2e;
        else {
          d.decimal = decimalHint.charCodeAt(0);
          d.fromLocale = true;
          d.ambiguous = d.ambiguous || c.ambiguousDecimals > 0;
        }
      }
      decided.set(c.src, d);
    }
    return decided;
  }
}

/** How a decision is reported for a template column: its ApplyStats.inferred entry and its warnings. */
export function describeDecision(
  column: string,
  dataColumn: string,
  d: Decided,
): { inference: ColumnInference; warnings: string[] } {
  const inference: ColumnInference = { column, dataColumn, fromLocale: d.fromLocale };
  if (d.dateOrder) inference.dateOrder = d.dateOrder;
  if (d.decimal !== undefined) inference.decimalSeparator = d.decimal === 0x2c ? ',' : '.';
  const warnings: string[] = [];
  if (d.mixedDates) {
    warnings.push(
      `The column mixes day-first and month-first dates; read as ${describeOrder(d.dateOrder)}, other rows are reported.`,
    );
  }
  if (d.ambiguous && d.dateOrder) {
    const why = d.hint
      ? ` because ${d.hint}.`
      : ': nothing else in the file tells the order (a currency, a decimal comma, another date).';
    warnings.push(
      `Every date in the column could be day-first or month-first; read as ${describeOrder(d.dateOrder)}${why}`,
    );
  } else if (d.ambiguous && d.decimal !== undefined) {
    warnings.push(
      `Numbers like 1,234 could use either decimal separator; read "${String.fromCharCode(d.decimal)}" as the decimal separator from the file's locale.`,
    );
  }
  return { inference, warnings };
}

function describeOrder(o: DateOrder | undefined): string {
  return o === 'DMY' ? 'day-first (DD/MM)' : o === 'MDY' ? 'month-first (MM/DD)' : 'year-first';
}
