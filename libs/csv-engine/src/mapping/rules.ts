// Template column rules (issue 22), compiled once per run and checked on each output cell in the same
// streaming pass: type, maxLength, allowed, unique (required is the row loop's empty-cell check). A
// failing cell is a warning with its rule; the value is written as it is.
import { MappingError } from '../errors';
import type { ColumnRules, TemplateRules, WarningRule } from '../types';
import { graphemeLength } from './transforms/strings';

/** Distinct values remembered for one `unique` column. */
export const UNIQUE_MAX_VALUES = 2_000_000;

export interface CompiledRules {
  check: ((v: string) => string | null) | null;
  type: string | null;
  maxLength: number;
  allowed: Set<string> | null;
  unique: UniqueSet | null;
}

export type Warn = (rule: WarningRule, message: string) => void;

/**
 * Values seen in a `unique` column. Memory: values of up to 16 UTF-16 units are kept as they are;
 * longer ones as a 52-bit hash (a number). About 60–90 bytes per distinct value in V8, so a column of
 * 1M distinct values costs ~60–90 MB; past UNIQUE_MAX_VALUES the check stops (one warning says so).
 * Two different long values share a hash with probability ~n²/2⁵³ (≈1e-4 at 1M values): a false
 * "duplicate", never a missed one.
 */
export class UniqueSet {
  private readonly seen = new Map<string | number, number>();
  full = false;

  /** The row that first held v, or 0 when v is new. */
  add(v: string, row: number): number {
    const key = v.length <= 16 ? v : hash52(v);
    const first = this.seen.get(key);
    if (first !== undefined) return first;
    if (this.seen.size >= UNIQUE_MAX_VALUES) {
      this.full = true;
      return 0;
    }
    this.seen.set(key, row);
    return 0;
  }
}

function hash52(s: string): number {
  // Two FNV-1a-style 32-bit lanes, combined into a 52-bit integer.
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  return (h1 >>> 0) * 0x100000 + ((h2 >>> 0) & 0xfffff);
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const AMOUNT = /^(?:[+-]?\d+(?:\.\d+)?|\(\d+(?:\.\d+)?\))$/;
const BOOLEANS = new Set(['true', 'false', 'yes', 'no', 'y', 'n', '1', '0']);
// The common practical form (one @, a dot in the domain, no spaces); RFC 5322 allows more than importers do.
const EMAIL = /^[^\s@"(),:;<>[\]\\]+@[^\s@"(),:;<>[\]\\]+\.[^\s@"(),:;<>[\]\\]+$/;

/** A date pattern (YYYY YY MM M DD D and literal separators) as a reader of y/m/d. */
function compileDateRule(format: string, column: string): (v: string) => boolean {
  let src = '^';
  const order: string[] = [];
  for (let i = 0; i < format.length;) {
    const rest = format.slice(i);
    const tok = ['YYYY', 'YY', 'MM', 'DD', 'M', 'D'].find((t) => rest.startsWith(t));
    if (tok) {
      src += tok === 'YYYY' ? '(\\d{4})' : tok.length === 2 ? '(\\d{2})' : '(\\d{1,2})';
      order.push(tok[0]);
      i += tok.length;
    } else {
      src += format[i].replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
      i++;
    }
  }
  if (!order.includes('Y') || !order.includes('M') || !order.includes('D')) {
    throw new MappingError(
      `The date format for "${column}" must hold YYYY (or YY), MM (or M) and DD (or D).`,
    );
  }
  const re = new RegExp(`${src}$`);
  return (v) => {
    const m = re.exec(v);
    if (!m) return false;
    let y = 0;
    let mo = 0;
    let d = 0;
    order.forEach((t, k) => {
      const n = Number(m[k + 1]);
      if (t === 'Y') y = n;
      else if (t === 'M') mo = n;
      else d = n;
    });
    if (mo < 1 || mo > 12 || d < 1) return false;
    const days = new Date(Date.UTC(y < 100 ? 2000 + y : y, mo, 0)).getUTCDate();
    return d <= days;
  };
}

function isUrl(v: string): boolean {
  if (!/^https?:\/\//i.test(v)) return false;
  try {
    const u = new URL(v);
    return u.hostname.includes('.') || u.hostname === 'localhost';
  } catch {
    return false;
  }
}

/** The type check of a rule set: null when the value is fine, else what is wrong. */
function typeCheck(r: ColumnRules, column: string): ((v: string) => string | null) | null {
  const t = r.type;
  if (t === undefined || t === 'text') return null;
  const q = (v: string) => `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`;
  switch (t) {
    case 'number':
      return (v) => (NUMBER.test(v) ? null : `${q(v)} is not a number (write it like 1234.5)`);
    case 'amount':
      return (v) =>
        AMOUNT.test(v) ? null : `${q(v)} is not an amount (write it like 19.99, without currency)`;
    case 'boolean':
      return (v) => (BOOLEANS.has(v.toLowerCase()) ? null : `${q(v)} is not a yes/no value (TRUE or FALSE)`);
    case 'email':
      return (v) => (v.length <= 254 && EMAIL.test(v) ? null : `${q(v)} is not an email address`);
    case 'url':
      return (v) => (isUrl(v) ? null : `${q(v)} is not a web address (https://…)`);
    case 'date': {
      const format = r.format ?? 'YYYY-MM-DD';
      const ok = compileDateRule(format, column);
      return (v) => (ok(v) ? null : `${q(v)} is not a date in the form ${format}`);
    }
    default:
      throw new MappingError(
        `Unknown rule type "${String(t)}" for "${column}": use text, number, amount, date, boolean, email or url.`,
      );
  }
}

/** Checks what can be checked before the data file is read; throws MappingError. */
export function validateTemplateRules(
  templateHeaders: readonly string[],
  rules: TemplateRules | undefined,
): void {
  if (rules === undefined) return;
  const template = new Set(templateHeaders);
  for (const [column, r] of Object.entries(rules)) {
    if (!template.has(column))
      throw new MappingError(`Rules name "${column}", which is not a column of the template.`);
    compileRules(r, column);
  }
}

/** Compiled rules of a column, or null when nothing but `required` (or nothing) is asked. */
export function compileRules(r: ColumnRules, column: string): CompiledRules | null {
  if (typeof r !== 'object' || r === null)
    throw new MappingError(`The rules for "${column}" must be an object.`);
  if (r.maxLength !== undefined && (!Number.isInteger(r.maxLength) || r.maxLength < 1)) {
    throw new MappingError(`maxLength for "${column}" must be a whole number, 1 or more.`);
  }
  if (
    r.allowed !== undefined &&
    (!Array.isArray(r.allowed) || r.allowed.some((a) => typeof a !== 'string'))
  ) {
    throw new MappingError(`allowed for "${column}" must be a list of texts.`);
  }
  const check = typeCheck(r, column);
  const compiled: CompiledRules = {
    check,
    type: r.type ?? null,
    maxLength: r.maxLength ?? 0,
    allowed: r.allowed ? new Set(r.allowed) : null,
    unique: r.unique ? new UniqueSet() : null,
  };
  return check || compiled.maxLength || compiled.allowed || compiled.unique ? compiled : null;
}

/** Checks one non-empty output value; each failure is reported through `warn`. */
export function checkValue(c: CompiledRules, v: string, row: number, warn: Warn): void {
  if (c.check !== null) {
    const why = c.check(v);
    if (why !== null) warn('type', why);
  }
  if (c.maxLength > 0 && v.length > c.maxLength) {
    const n = graphemeLength(v);
    if (n > c.maxLength) warn('maxLength', `${n} characters; at most ${c.maxLength} are allowed`);
  }
  if (c.allowed !== null && !c.allowed.has(v)) {
    const list = [...c.allowed];
    warn(
      'allowed',
      `"${v}" is not one of the allowed values: ${list.slice(0, 10).join(', ')}${list.length > 10 ? ', …' : ''}`,
    );
  }
  if (c.unique !== null && !c.unique.full) {
    const first = c.unique.add(v, row);
    if (first > 0) warn('unique', `The same value is in row ${first}; each row needs its own`);
    else if (c.unique.full) {
      warn(
        'unique',
        `More than ${UNIQUE_MAX_VALUES} different values: uniqueness is not checked after this row`,
      );
    }
  }
}
