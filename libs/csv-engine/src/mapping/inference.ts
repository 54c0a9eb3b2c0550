// Column inference: before output starts, columns read with `auto` (dates without an input pattern,
// numbers without a decimal separator, debit/credit) are sampled, each value votes, and the column's date
// order and decimal separator are decided — from the votes, or from the file's locale when they cannot
// tell. What was decided is reported per column (ApplyStats.inferred) with warnings for doubtful cases.
import { DateGroups, voteDate, type DateOrder } from '../dates';
import { voteDecimal } from '../numbers';
import type { RecordView } from '../parser';
import type { SourceInfo } from '../reader';
import type { ApplyOptions, ColumnInference, MappingPair, Transform } from '../types';
import { contentInto, type Span } from './cells';
import { columnIndex } from './plan';

const DEFAULT_INFERENCE_ROWS = 10_000;

/** What was decided for one data column. */
export interface Decided {
  dateOrder?: DateOrder;
  decimal?: number;
  fromLocale: boolean;
  mixedDates: boolean;
  ambiguous: boolean;
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
  /** Values written with £ or € (a day-first locale when the dates cannot tell). */
  dayFirstCurrency: number;
}

/** Does the UTF-8 value hold £ (C2 A3) or € (E2 82 AC)? */
function hasDayFirstCurrency(buf: Buffer, s: number, e: number): boolean {
  for (let i = s; i < e; i++) {
    const b = buf[i];
    if (b < 0xc2) continue;
    if (b === 0xc2 && i + 1 < e && buf[i + 1] === 0xa3) return true;
    if (b === 0xe2 && i + 2 < e && buf[i + 1] === 0x82 && buf[i + 2] === 0xac) return true;
  }
  return false;
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
          dayFirstCurrency: 0,
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
        if (hasDayFirstCurrency(v.buf, v.s, v.e)) c.dayFirstCurrency++;
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
    // Amounts in pounds or euros say the file comes from where dates are written day-first.
    const dayFirstMoney = cols.some((c) => c.dayFirstCurrency > 0);
    const dateHint = this.options.locale?.dateOrder ?? (decimalHint === ',' || dayFirstMoney ? 'DMY' : 'MDY');
    for (const c of cols) {
      const d: Decided = { fromLocale: false, mixedDates: false, ambiguous: false };
      if (c.date) {
        if (c.ymd > c.dmy + c.mdy) d.dateOrder = 'YMD';
        else if (c.dmy > 0 || c.mdy > 0) {
          d.dateOrder = c.dmy >= c.mdy ? 'DMY' : 'MDY';
          d.mixedDates = c.dmy > 0 && c.mdy > 0;
        } else if (c.ymd > 0) d.dateOrder = 'YMD';
        else {
          d.dateOrder = dateHint;
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
    warnings.push(
      `Every date in the column could be day-first or month-first; read as ${describeOrder(d.dateOrder)} from the file's locale.`,
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
