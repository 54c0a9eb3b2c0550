// What a column's values look like, as the transform the engine would suggest for it: dates (with their
// input pattern), amounts (currency marks, "(12.50)", "12.50-", "£7.25 CR"/"DR"), numbers with a decimal
// comma or thousands separators, yes/no booleans, and debit + credit column pairs named as such. Used on an
// upload's first rows, so a suggested pair carries a transform and not only a column.
import { DateGroups, parseDateWithMonthName, readGroups, voteDate, type Ymd } from '../dates';
import { NumberScratch, parseNumberBytes, voteDecimal } from '../numbers';
import type { Transform } from '../types';

/** Share of the non-empty values that must fit a kind for the column to be suggested as that kind. */
const MIN_SHARE = 0.9;

const TRUE_WORDS = new Set([
  'yes',
  'y',
  'true',
  't',
  '1',
  'on',
  'ja',
  'j',
  'oui',
  'si',
  'sí',
  'x',
  'wahr',
  'vrai',
]);
const FALSE_WORDS = new Set(['no', 'n', 'false', 'f', '0', 'off', 'nein', 'non', 'falsch', 'faux', '-']);
/** Values that alone do not make a column boolean (a 0/1 column may be a count). */
const WEAK_BOOLEAN = new Set(['0', '1', 'x', '-']);

/** Debit and credit column names as banks export them (normalised: lower case, letters and spaces). */
const DEBIT_CREDIT_NAMES: readonly (readonly [string, string])[] = [
  ['debit', 'credit'],
  ['debits', 'credits'],
  ['debit amount', 'credit amount'],
  ['paid out', 'paid in'],
  ['money out', 'money in'],
  ['withdrawal', 'deposit'],
  ['withdrawals', 'deposits'],
  ['withdrawal amount', 'deposit amount'],
  ['out', 'in'],
  ['soll', 'haben'],
  ['ausgang', 'eingang'],
  ['débit', 'crédit'],
  ['dr', 'cr'],
];

function normaliseName(s: string): string {
  return s
    .toLowerCase()
    .replace(/\(.*?\)/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** An amount value's marks that a plain number does not have. */
const AMOUNT_MARK =
  /[()]|^\s*[-+]?\s*\p{Sc}|\p{Sc}\s*$|\b(?:cr|dr)\.?\s*$|\d\s*-\s*$|^\s*[A-Z]{3}\s|\s[A-Z]{3}\s*$/iu;

/** Day, month and year groups as dates are written: 31/01/2024, 1.2.24, 2024-01-31, 20240131 (+ a time). */
const DATE_SHAPE =
  /^(?:\d{1,2}([./ -])\d{1,2}\1(?:\d{4}|\d{2})|\d{4}([./-])\d{1,2}\2\d{1,2}|(?:19|20)\d{6})(?:[ T]\d{1,2}:\d{2}.*)?\.?$/;

function inferDate(values: readonly string[]): Transform | null {
  const g = new DateGroups();
  const ymd: Ymd = { y: 0, m: 0, d: 0 };
  let dmy = 0;
  let mdy = 0;
  let ymdVotes = 0;
  let ambiguous = 0;
  let named = 0;
  let first: string | null = null;
  for (const v of values) {
    const b = Buffer.from(v, 'utf8');
    // Digit dates only in date shapes: "1.234,56" has three digit groups too.
    const vote =
      /^\d/.test(v) && !/\p{L}/u.test(v) && !DATE_SHAPE.test(v) ? 'invalid' : voteDate(b, 0, b.length, g);
    if (vote === 'DMY') dmy++;
    else if (vote === 'MDY') mdy++;
    else if (vote === 'YMD') ymdVotes++;
    else if (vote === 'ambiguous') ambiguous++;
    else if (vote === 'text' && /\p{L}{3}/u.test(v) && parseDateWithMonthName(v, ymd) === null) {
      named++;
      continue;
    } else continue;
    first ??= v;
  }
  const dated = dmy + mdy + ymdVotes + ambiguous + named;
  if (dated === 0 || dated < values.length * MIN_SHARE) return null;
  if (named > 0 || first === null) return { kind: 'date', input: 'auto', output: 'YYYY-MM-DD' };
  let order: 'DMY' | 'MDY' | 'YMD' | null;
  if (ymdVotes > dmy + mdy + ambiguous) order = 'YMD';
  else if (dmy > 0 || mdy > 0) order = dmy >= mdy ? 'DMY' : 'MDY';
  else order = null;
  const pattern = order ? patternOf(first, order, g) : null;
  return { kind: 'date', input: pattern ?? 'auto', output: 'YYYY-MM-DD' };
}

/** '31/01/2024' read as DMY → 'DD/MM/YYYY' (the value's own separators and year width). */
function patternOf(value: string, order: 'DMY' | 'MDY' | 'YMD', g: DateGroups): string | null {
  const b = Buffer.from(value.trim(), 'utf8');
  if (!readGroups(b, 0, b.length, g)) return null;
  if (g.n === 1) return g.len[0] === 8 ? 'YYYYMMDD' : null;
  if (g.n !== 3) return null;
  const m = /^(\d+)([^\d]+)(\d+)([^\d]+)(\d+)/.exec(value.trim());
  if (!m) return null;
  const token = (letter: string, len: number): string =>
    letter === 'Y' ? (len === 2 ? 'YY' : 'YYYY') : letter === 'M' ? 'MM' : 'DD';
  const [a, b2, c] = order.split('');
  return `${token(a, m[1].length)}${m[2]}${token(b2, m[3].length)}${m[4]}${token(c, m[5].length)}`;
}

function inferBoolean(values: readonly string[]): Transform | null {
  let strong = 0;
  for (const v of values) {
    const k = v.trim().toLowerCase();
    if (!TRUE_WORDS.has(k) && !FALSE_WORDS.has(k)) return null;
    if (!WEAK_BOOLEAN.has(k)) strong++;
  }
  return strong > 0 ? { kind: 'boolean', output: ['TRUE', 'FALSE'] } : null;
}

function inferNumber(values: readonly string[]): Transform | null {
  let comma = 0;
  let point = 0;
  const bytes = values.map((v) => Buffer.from(v, 'utf8'));
  for (const b of bytes) {
    const vote = voteDecimal(b, 0, b.length);
    if (vote === ',') comma++;
    else if (vote === '.') point++;
  }
  const dec = comma > point ? 0x2c : 0x2e;
  const n = new NumberScratch();
  let ok = 0;
  let marked = 0;
  let grouped = 0;
  let maxFrac = 0;
  let fractions = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (parseNumberBytes(b, 0, b.length, dec, 'amount', n) !== null) continue;
    ok++;
    if (AMOUNT_MARK.test(values[i])) marked++;
    if (/\d[.,' \u00a0\u202f]\d{3}(?:\D|$)/u.test(values[i]) && n.fracLen !== 3) grouped++;
    if (n.fracLen > 0) fractions++;
    maxFrac = Math.max(maxFrac, n.fracLen);
  }
  if (ok === 0 || ok < values.length * MIN_SHARE) return null;
  const separator: { decimalSeparator?: '.' | ',' } = dec === 0x2c ? { decimalSeparator: ',' } : {};
  if (marked > 0) return { kind: 'amount', decimals: Math.min(10, Math.max(2, maxFrac)), ...separator };
  // Plain integers (ids, counts, codes with leading zeros) are copied as they are.
  if (fractions === 0 && grouped === 0) return null;
  return { kind: 'number', decimalSeparator: dec === 0x2c ? ',' : '.' };
}

/** The transform suggested for one column's values (null: copy as is). */
export function inferColumnTransform(values: readonly string[]): Transform | null {
  const filled = values.map((v) => v.trim()).filter((v) => v !== '');
  if (filled.length === 0) return null;
  return inferDate(filled) ?? inferBoolean(filled) ?? inferNumber(filled);
}

/**
 * The suggested transform of every column of a table (`rows` padded to the header width), with debit and
 * credit columns that form a pair suggested as one `debitCredit` amount (credit − debit).
 */
export function inferColumnTransforms(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
): (Transform | null)[] {
  const out = headers.map((_, k) => inferColumnTransform(rows.map((r) => r[k] ?? '')));
  const names = headers.map(normaliseName);
  for (const [debit, credit] of DEBIT_CREDIT_NAMES) {
    const d = names.indexOf(debit);
    const c = names.indexOf(credit);
    if (d < 0 || c < 0) continue;
    const numeric = (k: number) => out[k] === null || out[k]?.kind === 'amount' || out[k]?.kind === 'number';
    const empty = (k: number) => rows.every((r) => (r[k] ?? '').trim() === '');
    if (!numeric(d) || !numeric(c) || (empty(d) && empty(c))) continue;
    if ((out[d] === null && !empty(d)) || (out[c] === null && !empty(c))) {
      // integer-only amounts: still numbers if they parse
      const plain = (k: number) => rows.every((r) => /^\s*-?\d*\s*$/.test(r[k] ?? ''));
      if (!plain(d) || !plain(c)) continue;
    }
    const pair: Transform = {
      kind: 'debitCredit',
      debitColumn: headers[d],
      creditColumn: headers[c],
      decimals: 2,
    };
    out[d] = pair;
    out[c] = pair;
  }
  return out;
}
