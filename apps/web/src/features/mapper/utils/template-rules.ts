import type { ColumnRules, RuleType } from '@csv-mapper/contracts';

// Template column rules (issue 22's `templateRules`, shaped by the contract): helpers for the rules editor.

/** The contract's rule types, in the order the editor offers them. */
export const RULE_TYPES: readonly RuleType[] = [
  'text',
  'number',
  'amount',
  'date',
  'boolean',
  'email',
  'url',
];

/** Drops unset fields so an emptied rule set reads as "no rules". */
export function cleanRules(r: ColumnRules): ColumnRules | undefined {
  const out: ColumnRules = {};
  if (r.required) out.required = true;
  if (r.type) out.type = r.type;
  if (r.type === 'date' && r.format) out.format = r.format;
  if (r.maxLength !== undefined && r.maxLength > 0) out.maxLength = r.maxLength;
  if (r.allowed && r.allowed.length > 0) out.allowed = r.allowed;
  if (r.unique) out.unique = true;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** "required · number · ≤ 100" for a badge. */
export function describeRules(r: ColumnRules): string {
  const parts: string[] = [];
  if (r.required) parts.push('required');
  if (r.type) parts.push(r.type === 'date' && r.format ? `date ${r.format}` : r.type);
  if (r.maxLength !== undefined) parts.push(`≤ ${r.maxLength} chars`);
  if (r.allowed?.length) parts.push(`${r.allowed.length} allowed values`);
  if (r.unique) parts.push('unique');
  return parts.join(' · ');
}
