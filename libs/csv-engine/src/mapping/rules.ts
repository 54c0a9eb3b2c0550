// Template column rules (issue 22), compiled once per run and checked on each output cell in the same
// streaming pass: type, maxLength, allowed, unique (required is the row loop's empty-cell check). A
// failing cell is a warning with its rule; the value is written as it is.
import { PLAIN_BOOLEAN_WORDS } from '../booleans';
import { MappingError } from '../errors';
import type { ColumnRules, TemplateRules, WarningRule } from '../types';
import { graphemeLength } from './transforms/strings';

/** Distinct values remembered for one `unique` column. */
export const UNIQUE_MAX_VALUES = 2_000_000;

export interface CompiledRules {
  check: ((v: string) => string | null) | null;
  /** The type check on UTF-8 bytes, for the types that can be read without decoding (else null). */
  checkBytes: ((buf: Buffer, s: number, e: number) => boolean) | null;
  type: string | null;
  maxLength: number;
  allowed: Set<string> | null;
  unique: UniqueSet | null;
}

export type Warn = (rule: WarningRule, message: string) => void;

/**
 * Values seen in a `unique` column. Memory: values of up to 16 UTF-8 bytes are kept as they are (a
 * short string); longer ones as a 52-bit hash (a number). About 60–90 bytes per distinct value in V8, so a column of
 * 1M distinct values costs ~60–90 MB; past UNIQUE_MAX_VALUES the check stops (one warning says so).
 * Two different long values share a hash with probability ~n²/2⁵³ (≈1e-4 at 1M values): a false
 * "duplicate", never a missed one.
 */
export class UniqueSet {
  private readonly seen = new Map<string | number, number>();
  full = false;

  /** The row that first held v, or 0 when v is new. */
  add(v: string, row: number): number {
    const b = Buffer.from(v, 'utf8');
    return this.addBytes(b, 0, b.length, row);
  }

  /** add() for a value given as UTF-8 bytes (the key is the same as add()'s for the same text). */
  addBytes(buf: Buffer, s: number, e: number, row: number): number {
    const key = e - s <= 16 ? buf.toString('latin1', s, e) : hash52(buf, s, e);
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

function hash52(buf: Buffer, s: number, e: number): number {
  // Two FNV-1a-style 32-bit lanes over the bytes, combined into a 52-bit integer.
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = s; i < e; i++) {
    const c = buf[i];
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  return (h1 >>> 0) * 0x100000 + ((h2 >>> 0) & 0xfffff);
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const AMOUNT = /^(?:[+-]?\d+(?:\.\d+)?|\(\d+(?:\.\d+)?\))$/;
const BOOLEANS = new Set(PLAIN_BOOLEAN_WORDS);
// The common practical form (one @, a dot in the domain, no spaces); RFC 5322 allows more than importers do.
const EMAIL = /^[^\s@"(),:;<>[\]\\]+@[^\s@"(),:;<>[\]\\]+\.[^\s@"(),:;<>[\]\\]+$/;

const DIGIT = (b: number) => b >= 0x30 && b <= 0x39;

/** NUMBER on bytes: [+-] digits [. digits] [e[+-]digits], or [+-] . digits. */
function numberBytes(buf: Buffer, s: number, e: number): boolean {
  let i = s;
  if (buf[i] === 0x2b || buf[i] === 0x2d) i++;
  let digits = 0;
  while (i < e && DIGIT(buf[i])) {
    i++;
    digits++;
  }
  if (i < e && buf[i] === 0x2e) {
    i++;
    while (i < e && DIGIT(buf[i])) {
      i++;
      digits++;
    }
  }
  if (digits === 0) return false;
  if (i < e && (buf[i] === 0x65 || buf[i] === 0x45)) {
    i++;
    if (buf[i] === 0x2b || buf[i] === 0x2d) i++;
    const start = i;
    while (i < e && DIGIT(buf[i])) i++;
    if (i === start) return false;
  }
  return i === e;
}

/** AMOUNT on bytes: [+-]digits[.digits] or (digits[.digits]). */
function amountBytes(buf: Buffer, s: number, e: number): boolean {
  let i = s;
  let end = e;
  if (buf[i] === 0x28) {
    if (buf[e - 1] !== 0x29) return false;
    i++;
    end--;
  } else if (buf[i] === 0x2b || buf[i] === 0x2d) i++;
  const start = i;
  while (i < end && DIGIT(buf[i])) i++;
  if (i === start) return false;
  if (i < end && buf[i] === 0x2e) {
    const f = ++i;
    while (i < end && DIGIT(buf[i])) i++;
    if (i === f) return false;
  }
  return i === end;
}

/**
 * What each byte is to emailBytes: 0 allowed, 1 never (white space, controls and " ( ) , : ; < > [ \ ]),
 * 2 the @. One table load per byte rather than a chain of compares (the check runs on every cell).
 */
const EMAIL_BYTE = (() => {
  const t = new Uint8Array(256);
  for (let b = 0; b <= 0x20; b++) t[b] = 1;
  for (const c of '"(),:;<>[\\]') t[c.charCodeAt(0)] = 1;
  t[0x40] = 2;
  return t;
})();

/** EMAIL on bytes: one @, no spaces or specials, a dot in the domain with something around it. */
function emailBytes(buf: Buffer, s: number, e: number): boolean {
  if (e - s > 254) return false;
  const table = EMAIL_BYTE;
  let at = -1;
  for (let i = s; i < e; i++) {
    const k = table[buf[i]];
    if (k === 0) continue;
    if (k === 1 || at >= 0) return false;
    at = i;
  }
  if (at <= s) return false;
  for (let i = at + 2; i < e - 1; i++) if (buf[i] === 0x2e) return true;
  return false;
}

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
    checkBytes:
      r.type === 'number'
        ? numberBytes
        : r.type === 'amount'
          ? amountBytes
          : r.type === 'email'
            ? emailBytes
            : null,
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
    const why = uniqueProblem(c.unique, c.unique.add(v, row));
    if (why !== null) warn('unique', why);
  }
}

/** What add() or addBytes() returning `first` means for the cell: null when it is fine. */
function uniqueProblem(u: UniqueSet, first: number): string | null {
  if (first > 0) return `The same value is in row ${first}; each row needs its own`;
  if (u.full)
    return `More than ${UNIQUE_MAX_VALUES} different values: uniqueness is not checked after this row`;
  return null;
}

/** Where checkBytes reports (the mapping run). */
export interface RuleWarnings {
  warn(row: number, column: string, value: string, reason: string, rule?: WarningRule): void;
}

/**
 * checkValue for a value given as UTF-8 bytes (a cell a byte transform wrote): number, amount and email
 * types, maxLength within the byte count and unique are checked without decoding; anything else, and
 * every failure (to report the value), decodes the text. Warnings go to `out` for `column`: no closure
 * is made for a cell that passes (this runs on every cell of a ruled column).
 */
export function checkBytes(
  c: CompiledRules,
  buf: Buffer,
  s: number,
  e: number,
  row: number,
  column: string,
  out: RuleWarnings,
): void {
  const fast =
    (c.check === null || c.checkBytes !== null) &&
    c.allowed === null &&
    (c.maxLength === 0 || e - s <= c.maxLength) &&
    (c.checkBytes === null || c.checkBytes(buf, s, e));
  if (!fast) {
    const v = buf.toString('utf8', s, e);
    checkValue(c, v, row, (rule, message) => out.warn(row, column, v, message, rule));
    return;
  }
  if (c.unique !== null && !c.unique.full) {
    const why = uniqueProblem(c.unique, c.unique.addBytes(buf, s, e, row));
    if (why !== null) out.warn(row, column, buf.toString('utf8', s, e), why, 'unique');
  }
}
