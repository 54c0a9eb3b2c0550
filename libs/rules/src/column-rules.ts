// Template column rules (issue 22) on one value: what the engine checks on every output cell and what the
// review grid checks as a cell is edited. A failing value gets the rule's name and a message; the value is
// written as it is. `required` is an empty cell (''), checked before these: a non-empty value is checked
// against type, maxLength, allowed and unique, and every rule it breaks is reported.
import type { ColumnRules, WarningRule } from '@csv-mapper/contracts';
import { PLAIN_BOOLEAN_WORDS } from '../../csv-engine/src/booleans';
import { graphemeLength } from './characters';

/** The message of an empty cell in a required column. */
export const REQUIRED_MESSAGE = 'Required value is empty';

/** Distinct values remembered for one `unique` column (past it the check stops, one warning says so). */
export const UNIQUE_MAX_VALUES = 2_000_000;

/** What a value must look like for each type (the engine reads number, amount and email on bytes too). */
export const NUMBER_PATTERN = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/** An amount: digits with an optional decimal point and sign, or in accounting parentheses: (12.50). */
export const AMOUNT_PATTERN = /^(?:[+-]?\d+(?:\.\d+)?|\(\d+(?:\.\d+)?\))$/;
// The common practical form (one @, a dot in the domain, no spaces); RFC 5322 allows more than importers do.
export const EMAIL_PATTERN = /^[^\s@"(),:;<>[\]\\]+@[^\s@"(),:;<>[\]\\]+\.[^\s@"(),:;<>[\]\\]+$/;
/** The longest email address accepted (RFC 5321's path limit). */
export const EMAIL_MAX_LENGTH = 254;
const BOOLEANS = new Set(PLAIN_BOOLEAN_WORDS);

/** A rule a value broke. */
export interface RuleProblem {
  rule: WarningRule;
  message: string;
}

/** Where a check reports each rule a value breaks. */
export type RuleReport = (rule: WarningRule, message: string) => void;

/** The value-level part of a column's rules, compiled once (the engine adds its byte check and unique set). */
export interface ValueRules {
  /** The type check: null when the value is fine, else what is wrong. Null when no type is asked. */
  check: ((v: string) => string | null) | null;
  /** 0: no limit. */
  maxLength: number;
  allowed: ReadonlySet<string> | null;
}

const DATE_TOKENS = ['YYYY', 'YY', 'MM', 'DD', 'M', 'D'];

/** A date pattern (YYYY YY MM M DD D and literal separators) as a pattern and the order of y/m/d. */
function datePattern(format: string): { re: RegExp; order: string[] } {
  let src = '^';
  const order: string[] = [];
  for (let i = 0; i < format.length;) {
    const rest = format.slice(i);
    const tok = DATE_TOKENS.find((t) => rest.startsWith(t));
    if (tok) {
      src += tok === 'YYYY' ? '(\\d{4})' : tok.length === 2 ? '(\\d{2})' : '(\\d{1,2})';
      order.push(tok[0]);
      i += tok.length;
    } else {
      src += format[i].replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
      i++;
    }
  }
  return { re: new RegExp(`${src}$`), order };
}

function dateFormatProblem(format: string, column: string): string | null {
  const { order } = datePattern(format);
  return order.includes('Y') && order.includes('M') && order.includes('D')
    ? null
    : `The date format for "${column}" must hold YYYY (or YY), MM (or M) and DD (or D).`;
}

/** Does `v` read as a real date written in `format` (a format dateFormatProblem accepts)? */
export function dateReader(format: string): (v: string) => boolean {
  const { re, order } = datePattern(format);
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

/** An http(s) address with a dotted host (or localhost). */
export function isWebAddress(v: string): boolean {
  if (!/^https?:\/\//i.test(v)) return false;
  try {
    const u = new URL(v);
    return u.hostname.includes('.') || u.hostname === 'localhost';
  } catch {
    return false;
  }
}

/** The value as a message quotes it (cut after 40 characters). */
function quoted(v: string): string {
  return `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`;
}

/**
 * Why a column's rules cannot be checked (a message for the person who wrote them), or null. The engine
 * refuses such rules before it reads a file; the api's contract refuses most of them earlier.
 */
export function columnRulesProblem(r: unknown, column: string): string | null {
  if (typeof r !== 'object' || r === null) return `The rules for "${column}" must be an object.`;
  const rules = r as ColumnRules;
  if (rules.maxLength !== undefined && (!Number.isInteger(rules.maxLength) || rules.maxLength < 1)) {
    return `maxLength for "${column}" must be a whole number, 1 or more.`;
  }
  if (
    rules.allowed !== undefined &&
    (!Array.isArray(rules.allowed) || rules.allowed.some((a) => typeof a !== 'string'))
  ) {
    return `allowed for "${column}" must be a list of texts.`;
  }
  const t = rules.type;
  if (t === undefined || t === 'text' || t === 'number' || t === 'amount') return null;
  if (t === 'boolean' || t === 'email' || t === 'url') return null;
  if (t === 'date') return dateFormatProblem(rules.format ?? 'YYYY-MM-DD', column);
  return `Unknown rule type "${String(t)}" for "${column}": use text, number, amount, date, boolean, email or url.`;
}

/** The type check of valid rules (columnRulesProblem null): null when the value is fine, else what is wrong. */
export function typeCheck(r: ColumnRules): ((v: string) => string | null) | null {
  switch (r.type) {
    case 'number':
      return (v) => (NUMBER_PATTERN.test(v) ? null : `${quoted(v)} is not a number (write it like 1234.5)`);
    case 'amount':
      return (v) =>
        AMOUNT_PATTERN.test(v)
          ? null
          : `${quoted(v)} is not an amount (write it like 19.99, without currency)`;
    case 'boolean':
      return (v) =>
        BOOLEANS.has(v.toLowerCase()) ? null : `${quoted(v)} is not a yes/no value (TRUE or FALSE)`;
    case 'email':
      return (v) =>
        v.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(v) ? null : `${quoted(v)} is not an email address`;
    case 'url':
      return (v) => (isWebAddress(v) ? null : `${quoted(v)} is not a web address (https://…)`);
    case 'date': {
      const format = r.format ?? 'YYYY-MM-DD';
      const ok = dateReader(format);
      return (v) => (ok(v) ? null : `${quoted(v)} is not a date in the form ${format}`);
    }
    default:
      return null;
  }
}

/** The value-level rules of valid rules (columnRulesProblem null). */
export function compileValueRules(r: ColumnRules): ValueRules {
  return {
    check: typeCheck(r),
    maxLength: r.maxLength ?? 0,
    allowed: r.allowed ? new Set(r.allowed) : null,
  };
}

/** Reports what a non-empty value breaks of type, maxLength and allowed (in that order). */
export function checkValueRules(c: ValueRules, v: string, report: RuleReport): void {
  if (c.check !== null) {
    const why = c.check(v);
    if (why !== null) report('type', why);
  }
  if (c.maxLength > 0 && v.length > c.maxLength) {
    const n = graphemeLength(v);
    if (n > c.maxLength) report('maxLength', `${n} characters; at most ${c.maxLength} are allowed`);
  }
  if (c.allowed !== null && !c.allowed.has(v)) {
    const list = [...c.allowed];
    report(
      'allowed',
      `"${v}" is not one of the allowed values: ${list.slice(0, 10).join(', ')}${list.length > 10 ? ', …' : ''}`,
    );
  }
}

/**
 * The unique rule's verdict on a value: `first` is the row that first held it (0: none), `full` whether
 * the distinct values passed UNIQUE_MAX_VALUES. Null when the value is fine.
 */
export function uniqueProblem(first: number, full = false): string | null {
  if (first > 0) return `The same value is in row ${first}; each row needs its own`;
  if (full)
    return `More than ${UNIQUE_MAX_VALUES} different values: uniqueness is not checked after this row`;
  return null;
}

const compiledCache = new WeakMap<ColumnRules, ValueRules | null>();

/**
 * Every rule `value` breaks in a column with `rules`, as the engine reports them for an output cell (the
 * review grid's check as you type). `firstRowWith` answers the unique rule: the earlier row that holds the
 * same value, or 0 (without it, unique is left to the run). Rules the engine would refuse check nothing.
 */
export function checkColumnValue(
  value: string,
  rules: ColumnRules | undefined,
  firstRowWith?: (value: string) => number,
): RuleProblem[] {
  if (!rules) return [];
  if (value === '') return rules.required ? [{ rule: 'required', message: REQUIRED_MESSAGE }] : [];
  let c = compiledCache.get(rules);
  if (c === undefined) {
    c = columnRulesProblem(rules, '') === null ? compileValueRules(rules) : null;
    compiledCache.set(rules, c);
  }
  const problems: RuleProblem[] = [];
  const report: RuleReport = (rule, message) => problems.push({ rule, message });
  if (c !== null) checkValueRules(c, value, report);
  if (rules.unique && firstRowWith) {
    const why = uniqueProblem(firstRowWith(value));
    if (why !== null) report('unique', why);
  }
  return problems;
}
