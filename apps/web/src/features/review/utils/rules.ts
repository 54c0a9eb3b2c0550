import type { ColumnRules } from '@csv-mapper/contracts';

// Template column rules as the review grid checks them while a cell is edited. The engine stays the
// authority (its warnings are what the grid shows, and PATCH answers the edits' problems): this check only
// tells the person typing whether the new value will pass.

export type RuleName = 'required' | 'type' | 'maxLength' | 'allowed' | 'unique';

export interface RuleFailure {
  rule: RuleName;
  message: string;
}

const BOOLEAN_WORDS = new Set(['true', 'false', 'yes', 'no', 'y', 'n', '1', '0']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const AMOUNT = /^-?\d+(\.\d+)?$/;

let segmenter: Intl.Segmenter | undefined;
/** User-perceived characters, as the engine's truncate counts them. */
export function characterCount(value: string): number {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let n = 0;
  for (const _ of segmenter.segment(value)) n++;
  return n;
}

/** Does `value` read as a date written in `format` (e.g. MM/DD/YYYY)? Without a format, ISO dates. */
export function matchesDate(value: string, format = 'YYYY-MM-DD'): boolean {
  const tokens = format.match(/YYYY|YY|MM|M|DD|D|[^YMD]+/g) ?? [];
  const order: string[] = [];
  let source = '^';
  for (const t of tokens) {
    if (t === 'YYYY') source += '(\\d{4})';
    else if (t === 'YY') source += '(\\d{2})';
    else if (t === 'MM' || t === 'DD') source += '(\\d{2})';
    else if (t === 'M' || t === 'D') source += '(\\d{1,2})';
    else {
      source += t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      continue;
    }
    order.push(t[0]);
  }
  const m = new RegExp(`${source}$`).exec(value);
  if (!m) return false;
  const parts: Record<string, number> = {};
  order.forEach((k, i) => (parts[k] = Number(m[i + 1])));
  const year = parts.Y ?? 2000;
  const month = parts.M ?? 1;
  const day = parts.D ?? 1;
  if (month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(year < 100 ? 2000 + year : year, month, 0)).getUTCDate();
  return day <= days;
}

function typeFailure(value: string, rules: ColumnRules): string | null {
  switch (rules.type) {
    case 'number':
      return NUMBER.test(value) ? null : 'must be a number';
    case 'amount':
      return AMOUNT.test(value) ? null : 'must be an amount such as 12.50';
    case 'date':
      return matchesDate(value, rules.format)
        ? null
        : `must be a date written ${rules.format ?? 'YYYY-MM-DD'}`;
    case 'boolean':
      return BOOLEAN_WORDS.has(value.toLowerCase()) ? null : 'must be yes/no or true/false';
    case 'email':
      return EMAIL.test(value) ? null : 'must be an email address';
    case 'url':
      try {
        const u = new URL(value);
        return u.protocol === 'http:' || u.protocol === 'https:'
          ? null
          : 'must be a web address (http or https)';
      } catch {
        return 'must be a web address (http or https)';
      }
    default:
      return null;
  }
}

/**
 * The first rule `value` breaks, or null. `isDuplicate` answers the unique rule (the caller knows the other
 * rows; a paged grid cannot, and leaves it to the re-run).
 */
export function checkCell(
  value: string,
  rules: ColumnRules | undefined,
  isDuplicate?: (value: string) => boolean,
): RuleFailure | null {
  if (!rules) return null;
  if (value.trim() === '') {
    return rules.required ? { rule: 'required', message: 'A value is required' } : null;
  }
  const type = typeFailure(value, rules);
  if (type) return { rule: 'type', message: `The value ${type}` };
  if (rules.maxLength !== undefined) {
    const n = characterCount(value);
    if (n > rules.maxLength) {
      return { rule: 'maxLength', message: `At most ${rules.maxLength} characters (this has ${n})` };
    }
  }
  if (rules.allowed && rules.allowed.length > 0 && !rules.allowed.includes(value)) {
    const shown = rules.allowed.slice(0, 5).join(', ');
    return {
      rule: 'allowed',
      message: `Must be one of: ${shown}${rules.allowed.length > 5 ? ', …' : ''}`,
    };
  }
  if (rules.unique && isDuplicate?.(value)) {
    return { rule: 'unique', message: 'Another row already has this value' };
  }
  return null;
}
