// Source drift (issue 30): a data file that fits a saved mapping's source, but whose columns changed since
// the mapping was saved — which columns were added, removed or renamed, and the saved pairs with the
// renamed columns substituted. Renames come from the suggester's own matching (names through the lexicon,
// values through their profile): each removed saved column is read as a "template" column and the added
// columns of the new file as data; only a confident, single-column answer is a rename, anything less stays
// removed + added. Pure, so the api and any other caller answer the same.

import { normaliseHeader } from './lexicon';
import { suggestColumnMappings, type SuggestedTransform } from './suggester';

/** Below this suggester confidence a removed and an added column stay two changes, not a rename. */
export const RENAME_MIN_CONFIDENCE = 0.7;

/** A saved pair as the contract has it (structurally; this library imports no contract). */
export interface DriftPair {
  templateColumn: string;
  dataColumn: string;
  transform?: unknown;
  empty?: boolean;
}

export interface SourceDriftInput<P extends DriftPair> {
  /** The data columns the mapping was saved with. */
  savedHeaders: readonly string[];
  /** The saved pairs. */
  pairs: readonly P[];
  /** The new file's columns. */
  headers: readonly string[];
  /** The new file's sample values per column (the upload's first rows). */
  samples: Record<string, readonly string[]>;
  /** The upload's inferred transform per column. */
  inferred?: Record<string, SuggestedTransform | null | undefined>;
  /**
   * The score below which the caller drops the file: renames are not looked for when even renaming every
   * removed column could not reach it (many saved mappings are checked on every upload).
   */
  minScore?: number;
}

export interface SourceDrift<P extends DriftPair> {
  added: string[];
  removed: string[];
  renamed: { from: string; to: string }[];
  /** Columns the saved pairs read that the file lacks and nothing replaces (a subset of removed). */
  missing: string[];
  /** 0–1: Jaccard of the two column sets, a renamed column counting as present (2 decimals). */
  score: number;
  /** The saved pairs with renamed columns substituted; pairs that read a missing column are left out. */
  adaptedPairs: P[];
}

type Step = Record<string, unknown> & { kind?: unknown };

const stepsOf = (t: unknown): Step[] =>
  t === undefined || t === null ? [] : (Array.isArray(t) ? t : [t]).filter(isStep);
const isStep = (s: unknown): s is Step => typeof s === 'object' && s !== null;

/** The `{Column}` names of a combine pattern (`{{` and `}}` are literal braces). */
function patternColumns(pattern: string): string[] {
  const cols: string[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if ((c === '{' || c === '}') && pattern[i + 1] === c) i++;
    else if (c === '{') {
      const end = pattern.indexOf('}', i + 1);
      if (end < 0) break;
      cols.push(pattern.slice(i + 1, end));
      i = end;
    }
  }
  return cols;
}

function renamePattern(pattern: string, to: (c: string) => string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if ((c === '{' || c === '}') && pattern[i + 1] === c) {
      out += c + c;
      i++;
    } else if (c === '{') {
      const end = pattern.indexOf('}', i + 1);
      if (end < 0) return out + pattern.slice(i);
      out += `{${to(pattern.slice(i + 1, end))}}`;
      i = end;
    } else out += c;
  }
  return out;
}

/** Every data column a pair reads: its own, a debit/credit pair, a combine pattern, coalesce, a sign column. */
export function columnsReadBy(pair: DriftPair): string[] {
  if (pair.empty === true) return [];
  const cols: string[] = [];
  if (pair.dataColumn) cols.push(pair.dataColumn);
  for (const s of stepsOf(pair.transform)) {
    if (s.kind === 'debitCredit') cols.push(String(s.debitColumn ?? ''), String(s.creditColumn ?? ''));
    if (s.kind === 'combine' && typeof s.pattern === 'string') cols.push(...patternColumns(s.pattern));
    if (s.kind === 'coalesce' && Array.isArray(s.columns)) cols.push(...s.columns.map(String));
    const sign = s.sign as { column?: unknown } | undefined;
    if (isStep(sign) && typeof sign.column === 'string') cols.push(sign.column);
  }
  return [...new Set(cols.filter((c) => c !== ''))];
}

/** The pair with every column it reads passed through `to`. */
export function renamePairColumns<P extends DriftPair>(pair: P, to: (c: string) => string): P {
  const step = (s: Step): Step => {
    let n: Step = { ...s };
    if (s.kind === 'debitCredit')
      n = { ...n, debitColumn: to(String(s.debitColumn)), creditColumn: to(String(s.creditColumn)) };
    if (s.kind === 'combine' && typeof s.pattern === 'string')
      n = { ...n, pattern: renamePattern(s.pattern, to) };
    if (s.kind === 'coalesce' && Array.isArray(s.columns))
      n = { ...n, columns: s.columns.map((c) => to(String(c))) };
    const sign = s.sign as { column?: unknown } | undefined;
    if (isStep(sign) && typeof sign.column === 'string')
      n = { ...n, sign: { ...sign, column: to(sign.column) } };
    return n;
  };
  const out: P = { ...pair, dataColumn: pair.dataColumn ? to(pair.dataColumn) : pair.dataColumn };
  if (pair.transform !== undefined && pair.transform !== null)
    out.transform = Array.isArray(pair.transform)
      ? pair.transform.map((s: unknown) => (isStep(s) ? step(s) : s))
      : isStep(pair.transform)
        ? step(pair.transform)
        : pair.transform;
  return out;
}

/** The kind of values a saved column held, as its pair's first transform says (a rule type for the suggester). */
function savedKinds(pairs: readonly DriftPair[]): Record<string, { type: string }> {
  const kinds: Record<string, { type: string }> = {};
  for (const p of pairs) {
    const [first] = stepsOf(p.transform);
    if (!first || !p.dataColumn) continue;
    if (first.kind === 'date') kinds[p.dataColumn] = { type: 'date' };
    if (first.kind === 'amount') kinds[p.dataColumn] = { type: 'amount' };
    if (first.kind === 'number') kinds[p.dataColumn] = { type: 'number' };
    if (first.kind === 'boolean') kinds[p.dataColumn] = { type: 'boolean' };
  }
  return kinds;
}

/** What changed between a saved mapping's source columns and a new file's, and the pairs adapted to it. */
export function detectSourceDrift<P extends DriftPair>(input: SourceDriftInput<P>): SourceDrift<P> {
  const saved = [...new Set(input.savedHeaders)];
  const now = [...new Set(input.headers)];
  const nowSet = new Set(now);
  const renames = new Map<string, string>();
  let removed = saved.filter((h) => !nowSet.has(h));
  let added = now.filter((h) => !saved.includes(h));

  // the same name written differently ("amount" for "Amount"): the engine reads names exactly
  for (const r of removed) {
    const n = normaliseHeader(r);
    const to = added.find((a) => normaliseHeader(a) === n && ![...renames.values()].includes(a));
    if (n !== '' && to !== undefined) renames.set(r, to);
  }
  removed = removed.filter((r) => !renames.has(r));
  added = added.filter((a) => ![...renames.values()].includes(a));

  const present = saved.length - removed.length;
  const best = present + Math.min(removed.length, added.length);
  const reachable = best / (saved.length + now.length - best) >= (input.minScore ?? 0);
  if (removed.length > 0 && added.length > 0 && reachable) {
    const rules = savedKinds(input.pairs);
    const { mappings } = suggestColumnMappings({
      templateColumns: removed,
      templateRules: Object.fromEntries(removed.filter((r) => rules[r]).map((r) => [r, rules[r]])),
      dataColumns: added,
      samples: Object.fromEntries(added.map((a) => [a, input.samples[a] ?? []])),
      inferred: Object.fromEntries(added.map((a) => [a, input.inferred?.[a] ?? null])),
    });
    for (const s of mappings) {
      if (s.empty || !s.dataColumn || !added.includes(s.dataColumn)) continue;
      const [first] = stepsOf(s.transform);
      // a combination of columns (First + Last) is no rename of one column
      if (first && ['combine', 'coalesce', 'debitCredit', 'constant'].includes(String(first.kind))) continue;
      if (s.confidence < RENAME_MIN_CONFIDENCE) continue;
      if ([...renames.values()].includes(s.dataColumn)) continue;
      renames.set(s.templateColumn, s.dataColumn);
    }
    removed = removed.filter((r) => !renames.has(r));
    added = added.filter((a) => ![...renames.values()].includes(a));
  }

  const removedSet = new Set(removed);
  const read = new Set(input.pairs.flatMap(columnsReadBy));
  const missing = removed.filter((r) => read.has(r));
  const to = (c: string) => renames.get(c) ?? c;
  const adaptedPairs = input.pairs
    .filter((p) => !columnsReadBy(p).some((c) => removedSet.has(c)))
    .map((p) => (columnsReadBy(p).some((c) => renames.has(c)) ? renamePairColumns(p, to) : p));
  const inter = saved.length - removed.length;
  const union = saved.length + now.length - inter;
  return {
    added,
    removed,
    renamed: saved.filter((h) => renames.has(h)).map((from) => ({ from, to: renames.get(from)! })),
    missing,
    score: union === 0 ? 0 : Math.round((inter / union) * 100) / 100,
    adaptedPairs,
  };
}
