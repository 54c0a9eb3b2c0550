// The yes/no words — one list for the engine's boolean transform, its column-kind inference, the template
// rule `boolean` and the suggester's value profile (libs/domain), so none of them reads a word the others do
// not. Lower case, compared after trimming. No imports: libs/domain reads this file directly (the web app
// resolves @csv-mapper/domain, not the engine).

/** Words read as yes: English, German, Dutch, French, Spanish, Italian, Portuguese, marks and states. */
export const TRUE_WORDS: readonly string[] = [
  'yes',
  'y',
  'true',
  't',
  '1',
  '-1',
  'on',
  'ja',
  'j',
  'oui',
  'si',
  'sí',
  'sim',
  'x',
  '✓',
  '✔',
  'wahr',
  'vrai',
  'checked',
  'enabled',
  'active',
];

/** Words read as no. */
export const FALSE_WORDS: readonly string[] = [
  'no',
  'n',
  'false',
  'f',
  '0',
  'off',
  'nein',
  'nee',
  'nej',
  'non',
  'nao',
  'não',
  'falsch',
  'faux',
  'unchecked',
  'disabled',
  'inactive',
  '-',
];

/**
 * Words that alone do not make a column boolean: 0/1 (and Access' -1) may be a count, x and - are marks,
 * active/enabled a status the target may want as text.
 */
export const WEAK_BOOLEAN_WORDS: readonly string[] = [
  '0',
  '1',
  '-1',
  'x',
  '-',
  'active',
  'inactive',
  'enabled',
  'disabled',
];

/** The plain pairs importers accept as a boolean value (what the template rule `boolean` allows). */
export const PLAIN_BOOLEAN_WORDS: readonly string[] = ['true', 'false', 'yes', 'no', 'y', 'n', '1', '0'];

const TRUE_SET = new Set(TRUE_WORDS);
const FALSE_SET = new Set(FALSE_WORDS);

/** true or false for a yes/no word (any case, surrounding spaces ignored); null for anything else. */
export function booleanWord(value: string): boolean | null {
  const key = value.trim().toLowerCase();
  if (TRUE_SET.has(key)) return true;
  if (FALSE_SET.has(key)) return false;
  return null;
}
