import type { MappingPair, SourceChanges } from '@csv-mapper/contracts';

// Words for source drift (issue 30): what changed in a data file since a saved mapping was made from its
// source, as the mapper shows it before the person runs.

const q = (s: string) => `'${s}'`;

function list(names: string[]): string {
  const quoted = names.map(q);
  return quoted.length <= 1
    ? (quoted[0] ?? '')
    : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}

/** "'Amount' is now 'Amount (EUR)'; a new column 'Category'"; '' when nothing changed. */
export function describeChanges(changes: SourceChanges | undefined): string {
  if (!changes) return '';
  const parts = changes.renamed.map((r) => `${q(r.from)} is now ${q(r.to)}`);
  if (changes.added.length > 0)
    parts.push(`${changes.added.length === 1 ? 'a new column' : 'new columns'} ${list(changes.added)}`);
  if (changes.removed.length > 0)
    parts.push(`${list(changes.removed)} ${changes.removed.length === 1 ? 'is' : 'are'} gone`);
  return parts.join('; ');
}

/**
 * The template columns left to map because the column their saved pair read is gone, e.g. "Map 'Value'
 * yourself: 'Amount' is not in this file."; '' when none.
 */
export function describeMissing(missing: string[] | undefined, pairs: MappingPair[]): string {
  if (!missing || missing.length === 0) return '';
  const targets = pairs
    .filter(
      (p) =>
        missing.includes(p.dataColumn) ||
        missing.some((m) => JSON.stringify(p.transform ?? '').includes(JSON.stringify(m))),
    )
    .map((p) => p.templateColumn);
  const what = `${list(missing)} ${missing.length === 1 ? 'is' : 'are'} not in this file`;
  return targets.length > 0
    ? `Map ${list(targets)} yourself: ${what}.`
    : `${what[0].toUpperCase()}${what.slice(1)}.`;
}

export function hasChanges(changes: SourceChanges | undefined): boolean {
  return !!changes && changes.added.length + changes.removed.length + changes.renamed.length > 0;
}
