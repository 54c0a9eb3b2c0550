// Day-first or month-first for a date column whose own values cannot tell (every day is 12 or less): the
// rest of the file often can. Hints, strongest first: an unambiguous date in another date column, currency
// codes or marks (GBP, EUR, CHF, £, € … are written day-first; USD / US$ month-first; CAD and a bare $ do
// not vote), amounts with a decimal comma, a `;` delimiter. One FileHints is fed every cell of the sample,
// by the upload's inference (column-kinds.ts) and by the run's profile (inference.ts), so both decide
// alike; `decide` says which hint decided, for the column note.
import { DateGroups, readGroups } from '../dates';
import { voteDecimal } from '../numbers';

/** ISO 4217 codes of places that write dates day-first (or year-first, never month-first). */
const DAY_FIRST_CODES = new Set([
  'GBP',
  'EUR',
  'CHF',
  'SEK',
  'NOK',
  'DKK',
  'ISK',
  'PLN',
  'CZK',
  'HUF',
  'RON',
  'BGN',
  'HRK',
  'RSD',
  'TRY',
  'RUB',
  'UAH',
  'AUD',
  'NZD',
  'INR',
  'ZAR',
  'BRL',
  'ARS',
  'MXN',
  'CLP',
  'COP',
  'PEN',
  'ILS',
  'AED',
  'SAR',
  'EGP',
  'NGN',
  'KES',
  'SGD',
  'HKD',
  'MYR',
  'IDR',
  'THB',
  'VND',
]);
/** Codes of places that write dates month-first. */
const MONTH_FIRST_CODES = new Set(['USD']);

/** What the sample showed in one column. */
interface HintColumn {
  filled: number;
  /** Values shaped like a digit date (day, month, year groups, or year first). */
  dated: number;
  dmy: number;
  mdy: number;
  dmyExample: string;
  mdyExample: string;
  dayFirstMoney: number;
  monthFirstMoney: number;
  /** The first currency code or mark seen, as written ("GBP", "£"). */
  money: string;
  comma: number;
  point: number;
  commaExample: string;
}

export interface DateHint {
  order: 'DMY' | 'MDY';
  /** Which hint decided, for people: "the Currency column holds GBP". Empty when nothing did. */
  reason: string;
  /** True when a hint of the file decided (false: the month-first default). */
  decided: boolean;
}

const SHARE = 0.9;

export class FileHints {
  private readonly cols: HintColumn[] = [];
  private readonly g = new DateGroups();

  constructor(readonly headers: readonly string[]) {
    for (let k = 0; k < headers.length; k++) {
      this.cols.push({
        filled: 0,
        dated: 0,
        dmy: 0,
        mdy: 0,
        dmyExample: '',
        mdyExample: '',
        dayFirstMoney: 0,
        monthFirstMoney: 0,
        money: '',
        comma: 0,
        point: 0,
        commaExample: '',
      });
    }
  }

  /** Counts one cell's hints: buf[s, e) of column k. */
  add(k: number, buf: Buffer, s: number, e: number): void {
    const c = this.cols[k];
    if (c === undefined) return;
    while (s < e && (buf[s] === 0x20 || buf[s] === 0x09)) s++;
    while (e > s && (buf[e - 1] === 0x20 || buf[e - 1] === 0x09)) e--;
    if (s === e) return;
    c.filled++;
    const first = buf[s];
    if (first >= 0x30 && first <= 0x39 && this.date(c, buf, s, e)) return;
    this.money(c, buf, s, e);
    if ((first >= 0x30 && first <= 0x39) || first === 0x2d || first === 0x2b || first === 0x28) {
      const v = voteDecimal(buf, s, e);
      if (v === ',') {
        if (c.comma++ === 0) c.commaExample = buf.toString('utf8', s, e);
      } else if (v === '.') c.point++;
    }
  }

  /** A digit date: counted (with its vote) and true; false for anything else. */
  private date(c: HintColumn, buf: Buffer, s: number, e: number): boolean {
    const g = this.g;
    if (!readGroups(buf, s, e, g)) return false;
    if (g.n === 1) {
      if (g.len[0] !== 8) return false;
      c.dated++;
      return true;
    }
    if (g.n !== 3) return false;
    if (g.len[0] === 4) {
      if (g.len[1] > 2 || g.len[2] > 2) return false;
      c.dated++;
      return true;
    }
    if (g.len[0] > 2 || g.len[1] > 2 || (g.len[2] !== 2 && g.len[2] !== 4)) return false;
    const a = g.v[0];
    const b = g.v[1];
    if (a < 1 || b < 1 || a > 31 || b > 31 || (a > 12 && b > 12)) return false;
    c.dated++;
    if (a > 12) {
      if (c.dmy++ === 0) c.dmyExample = buf.toString('utf8', s, e);
    } else if (b > 12) {
      if (c.mdy++ === 0) c.mdyExample = buf.toString('utf8', s, e);
    }
    return true;
  }

  /** Currency codes (a cell of its own, or before/after an amount) and £ € US$ marks. */
  private money(c: HintColumn, buf: Buffer, s: number, e: number): void {
    let code = '';
    if (e - s === 3) code = upper3(buf, s);
    else if (e - s > 3) {
      if (buf[s + 3] === 0x20) code = upper3(buf, s);
      if (code === '' && buf[e - 4] === 0x20) code = upper3(buf, e - 3);
    }
    if (code !== '') {
      if (DAY_FIRST_CODES.has(code)) return this.vote(c, 1, code);
      if (MONTH_FIRST_CODES.has(code)) return this.vote(c, -1, code);
    }
    for (let i = s; i < e; i++) {
      const b = buf[i];
      if (b === 0xc2 && i + 1 < e && buf[i + 1] === 0xa3) return this.vote(c, 1, '£');
      if (b === 0xe2 && i + 2 < e && buf[i + 1] === 0x82 && buf[i + 2] === 0xac) return this.vote(c, 1, '€');
      if (b === 0x24 && i >= s + 2 && buf[i - 2] === 0x55 && buf[i - 1] === 0x53)
        return this.vote(c, -1, 'US$');
    }
  }

  private vote(c: HintColumn, dayFirst: number, money: string): void {
    if (dayFirst > 0) c.dayFirstMoney++;
    else c.monthFirstMoney++;
    if (c.money === '') c.money = money;
  }

  /** The order for date column `k` from the rest of the file (k's own votes are the caller's). */
  decide(k: number, delimiter: string | undefined): DateHint {
    const name = (j: number): string => this.headers[j] || `Column ${j + 1}`;
    // 1. another date column with unambiguous dates
    let dmy = 0;
    let mdy = 0;
    let dmyAt = -1;
    let mdyAt = -1;
    this.cols.forEach((c, j) => {
      if (j === k || c.filled === 0 || c.dated < c.filled * SHARE) return;
      dmy += c.dmy;
      mdy += c.mdy;
      if (c.dmy > 0 && dmyAt < 0) dmyAt = j;
      if (c.mdy > 0 && mdyAt < 0) mdyAt = j;
    });
    if (dmy > mdy)
      return {
        order: 'DMY',
        reason: `the ${name(dmyAt)} column holds ${this.cols[dmyAt].dmyExample}`,
        decided: true,
      };
    if (mdy > dmy)
      return {
        order: 'MDY',
        reason: `the ${name(mdyAt)} column holds ${this.cols[mdyAt].mdyExample}`,
        decided: true,
      };
    // 2. currency codes and marks
    let day = 0;
    let month = 0;
    for (const c of this.cols) {
      day += c.dayFirstMoney;
      month += c.monthFirstMoney;
    }
    if (day !== month) {
      const want = day > month;
      const j = this.cols.findIndex((c) => (want ? c.dayFirstMoney : c.monthFirstMoney) > 0);
      const c = this.cols[j];
      const what = /^[A-Z]{3}$/.test(c.money) ? c.money : `amounts in ${c.money}`;
      return { order: want ? 'DMY' : 'MDY', reason: `the ${name(j)} column holds ${what}`, decided: true };
    }
    // 3. amounts with a decimal comma
    const j = this.cols.findIndex((c, i) => i !== k && c.comma > c.point && c.comma * 5 >= c.filled);
    if (j >= 0) {
      return {
        order: 'DMY',
        reason: `the ${name(j)} column writes amounts with a decimal comma (${this.cols[j].commaExample})`,
        decided: true,
      };
    }
    // 4. the delimiter
    if (delimiter === ';')
      return { order: 'DMY', reason: 'the file is separated by semicolons', decided: true };
    return { order: 'MDY', reason: '', decided: false };
  }
}

/** Three ASCII capital letters at i as text, else ''. */
function upper3(buf: Buffer, i: number): string {
  for (let j = i; j < i + 3; j++) if (buf[j] < 0x41 || buf[j] > 0x5a) return '';
  return buf.toString('latin1', i, i + 3);
}
