// Transforms as evidence: a built-in column's default transform merged with the one the data's values
// suggest, and whether an inferred transform fits a template column.
import type { ValueKind } from '../lexicon';
import type { TemplateTransform } from '../templates';
import type { SignFromColumn, SuggestedTransform } from './types';

export function steps<T>(t: T | T[] | undefined): T[] {
  return t === undefined ? [] : Array.isArray(t) ? t : [t];
}

/**
 * Merges a built-in column's default transform with the one the data's values suggest: how the data is
 * written (date input pattern, decimal separator, sign, debit/credit pair) comes from the data, the output
 * format from the template. An inferred debit/credit pair or signed amount is never replaced.
 */
export function mergeTransforms(
  template: TemplateTransform | TemplateTransform[] | undefined,
  inferred: SuggestedTransform | undefined,
): SuggestedTransform | SuggestedTransform[] | undefined {
  const tSteps = steps(template) as SuggestedTransform[];
  if (!inferred) return template as SuggestedTransform | SuggestedTransform[] | undefined;
  if (tSteps.length === 0) return inferred;
  const head = tSteps[0];
  let merged: SuggestedTransform;
  if (inferred.kind === 'debitCredit') {
    merged =
      head.kind === 'amount' && head.decimals !== undefined
        ? { ...inferred, decimals: head.decimals }
        : inferred;
  } else if (inferred.kind === 'date' && head.kind === 'date') {
    merged = { ...head, input: inferred.input ?? head.input, output: head.output };
  } else if (
    (inferred.kind === 'amount' || inferred.kind === 'number') &&
    (head.kind === 'amount' || head.kind === 'number')
  ) {
    merged = { ...inferred, ...head, kind: head.kind } as SuggestedTransform;
    // a number has no way of writing negatives to choose
    if (merged.kind === 'number') delete (merged as { negative?: unknown }).negative;
    const from = inferred as {
      decimalSeparator?: 'auto' | '.' | ',';
      sign?: SignFromColumn;
      invert?: boolean;
    };
    const out = merged as { decimalSeparator?: 'auto' | '.' | ','; sign?: SignFromColumn; invert?: boolean };
    if (from.decimalSeparator) out.decimalSeparator = from.decimalSeparator;
    if (from.sign) out.sign = from.sign;
    if (from.invert) out.invert = from.invert;
  } else {
    return tSteps.length === 1 ? tSteps[0] : tSteps;
  }
  const rest = tSteps.slice(1);
  return rest.length === 0 ? merged : [merged, ...rest];
}

/** Does an inferred transform fit a template column holding values of this kind? */
export function fitsKind(t: SuggestedTransform, kind: ValueKind | null): boolean {
  if (kind === null) return t.kind !== 'boolean';
  if (t.kind === 'date') return kind === 'date';
  if (t.kind === 'amount' || t.kind === 'number') return kind === 'amount' || kind === 'number';
  if (t.kind === 'boolean') return kind === 'boolean';
  return false;
}

export const TEXT_STEPS = new Set(['trim', 'upper', 'lower', 'truncate', 'slug']);
