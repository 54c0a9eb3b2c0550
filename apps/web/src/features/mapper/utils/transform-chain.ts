import type { SplitPresetPart, Transform } from '@csv-mapper/contracts';

// Chains of transforms (issue 22): a pair's `transform` may be a list applied in order. Pure helpers for
// the picker: steps in and out of the pair's one-or-many shape, a fresh value table from a column's values.

export type { SplitTransform, MapValuesTransform } from '@csv-mapper/contracts';
export type SplitPreset = 'personName' | 'cityStateZip';
export type SplitPart = SplitPresetPart;

/** One step of a chain. */
export type Step = Transform;
export type StepKind = Step['kind'];
/** What a pair's `transform` holds: nothing, one step, or steps in order. */
export type TransformValue = Transform | Transform[] | undefined;

export function stepsOf(t: TransformValue): Step[] {
  if (t === undefined) return [];
  return Array.isArray(t) ? t : [t];
}

/** One step is written as itself, several as a list, none as undefined. */
export function fromSteps(steps: Step[]): TransformValue {
  if (steps.length === 0) return undefined;
  return steps.length === 1 ? steps[0] : steps;
}

export function moveStep(steps: Step[], from: number, to: number): Step[] {
  if (to < 0 || to >= steps.length || from === to) return steps;
  const next = [...steps];
  const [s] = next.splice(from, 1);
  next.splice(to, 0, s);
  return next;
}

/** The table of a new mapValues step: each distinct value (up to 200, in first-seen order) to ''. */
export const MAP_VALUES_MAX = 200;
export function distinctValues(values: Iterable<string>, max = MAP_VALUES_MAX): string[] {
  const seen = new Set<string>();
  for (const v of values) {
    if (v.trim() === '') continue;
    seen.add(v);
    if (seen.size >= max) break;
  }
  return [...seen];
}

/** Data columns named in a combine pattern (`{First Name} {Last Name}`), in order. */
export function patternColumns(pattern: string): string[] {
  return [...pattern.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]);
}

/**
 * Does this pair fill its column without reading its own data column (constant, debit + credit, combine,
 * first non-empty of several)?
 */
export function fillsWithoutDataColumn(t: TransformValue): boolean {
  const first = stepsOf(t)[0];
  return (
    first?.kind === 'constant' ||
    first?.kind === 'debitCredit' ||
    first?.kind === 'combine' ||
    first?.kind === 'coalesce'
  );
}

/** A regex the browser cannot compile, with the reason, or null. */
export function regexError(source: string): string | null {
  try {
    new RegExp(source, 'u');
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : 'Not a valid regular expression';
  }
}
