// Template column rules (issue 22), compiled once per run and checked on each output cell in the same
// streaming pass: type, maxLength, allowed, unique (required is the row loop's empty-cell check). A
// failing cell is a warning with its rule; the value is written as it is. The checks on text are the shared
// ones of libs/rules (the review grid applies the same); this file adds the unique set and the byte checks
// of the hot path, which libs/rules engine-conformance.spec.ts holds equal to them.
import {
  checkValueRules,
  columnRulesProblem,
  compileValueRules,
  EMAIL_MAX_LENGTH,
  uniqueProblem,
  UNIQUE_MAX_VALUES,
  type ValueRules,
} from '../../../rules/src/column-rules';
import { MappingError } from '../errors';
import type { ColumnRules, TemplateRules, WarningRule } from '../types';

export { UNIQUE_MAX_VALUES };

export interface CompiledRules extends ValueRules {
  /** The type check on UTF-8 bytes, for the types that can be read without decoding (else null). */
  checkBytes: ((buf: Buffer, s: number, e: number) => boolean) | null;
  type: string | null;
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
 * What each byte is to emailBytes: 0 allowed, 1 not on the fast path (white space, controls and
 * " ( ) , : ; < > [ \ ]; the lead bytes of the non-ASCII white space EMAIL_PATTERN's \s refuses, U+0085
 * U+00A0 U+1680 U+2000–U+200A U+2028 U+2029 U+202F U+205F U+3000 U+FEFF: the text check decides those),
 * 2 the @. One table load per byte rather than a chain of compares (the check runs on every cell).
 */
const EMAIL_BYTE = (() => {
  const t = new Uint8Array(256);
  for (let b = 0; b <= 0x20; b++) t[b] = 1;
  for (const c of '"(),:;<>[\\]') t[c.charCodeAt(0)] = 1;
  for (const lead of [0xc2, 0xe1, 0xe2, 0xe3, 0xef]) t[lead] = 1;
  t[0x40] = 2;
  return t;
})();

/**
 * EMAIL_PATTERN on bytes: one @, no spaces or specials, a dot in the domain with something around it.
 * false also when only the text check can tell (checkBytes then decodes and asks it).
 */
function emailBytes(buf: Buffer, s: number, e: number): boolean {
  if (e - s > EMAIL_MAX_LENGTH) return false;
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
  const problem = columnRulesProblem(r, column);
  if (problem !== null) throw new MappingError(problem);
  const shared = compileValueRules(r);
  const check = shared.check;
  const compiled: CompiledRules = {
    ...shared,
    checkBytes:
      r.type === 'number'
        ? numberBytes
        : r.type === 'amount'
          ? amountBytes
          : r.type === 'email'
            ? emailBytes
            : null,
    type: r.type ?? null,
    unique: r.unique ? new UniqueSet() : null,
  };
  return check || compiled.maxLength || compiled.allowed || compiled.unique ? compiled : null;
}

/** Checks one non-empty output value; each failure is reported through `warn`. */
export function checkValue(c: CompiledRules, v: string, row: number, warn: Warn): void {
  checkValueRules(c, v, warn);
  if (c.unique !== null && !c.unique.full) {
    const first = c.unique.add(v, row);
    const why = uniqueProblem(first, c.unique.full);
    if (why !== null) warn('unique', why);
  }
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
    const first = c.unique.addBytes(buf, s, e, row);
    const why = uniqueProblem(first, c.unique.full);
    if (why !== null) out.warn(row, column, buf.toString('utf8', s, e), why, 'unique');
  }
}
