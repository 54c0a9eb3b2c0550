// What a column's values look like, as the transform the engine would suggest for it: dates (with their
// input pattern), amounts (currency marks, "(12.50)", "12.50-", "£7.25 CR"/"DR"), numbers with a decimal
// comma or thousands separators, yes/no booleans, and debit + credit column pairs named as such. Used on an
// upload's first rows, so a suggested pair carries a transform and not only a column.
import { DateGroups, parseDateWithMonthName, readGroups, voteDate, type Ymd } from '../dates';
import { NumberScratch, parseNumberBytes, voteDecimal } from '../numbers';
import { booleanWord, WEAK_BOOLEAN_WORDS } from '../booleans';
import type { Transform } from '../types';
import { FileHints } from './date-hints';

/** Share of the non-empty values that must fit a kind for the column to be suggested as that kind. */
const MIN_SHARE = 0.9;

const WEAK_BOOLEAN = new Set(WEAK_BOOLEAN_WORDS);

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
  ['af', 'bij'],
  ['debet', 'credit'],
  ['lastschrift', 'gutschrift'],
  ['belastung', 'gutschrift'],
  ['ausgaben', 'einnahmen'],
  ['cargo', 'abono'],
  ['cargos', 'abonos'],
  ['dare', 'avere'],
  ['débito', 'crédito'],
  ['debito', 'credito'],
  ['uttag', 'insättning'],
  ['retrait', 'dépôt'],
  ['charges', 'credits'],
  ['obciążenia', 'uznania'],
  ['outflow', 'inflow'],
];

function normaliseName(s: string): string {
  return s
    .toLowerCase()
    .replace(/\(.*?\)/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Words a debit or credit column's name may carry besides its side ("Soll EUR", "Bedrag af"). */
const AMOUNT_WORDS = new Set([
  'amount',
  'amt',
  'betrag',
  'bedrag',
  'montant',
  'importe',
  'importo',
  'belopp',
  'valor',
  'kwota',
  'eur',
  'gbp',
  'usd',
  'chf',
  'sek',
  'nok',
  'dkk',
  'pln',
  'aud',
  'nzd',
  'cad',
  'in eur',
]);

/** A header as a debit/credit side: its normalised name, and the same without amount words and codes. */
function sideNames(header: string): [string, string] {
  const n = normaliseName(header);
  const bare = n
    .split(' ')
    .filter((w) => !AMOUNT_WORDS.has(w))
    .join(' ');
  return [n, bare || n];
}

/** Index pairs [debit, credit] of headers named as the two sides of one debit/credit pair. */
function namedPairs(headers: readonly string[]): [number, number][] {
  const names = headers.map(sideNames);
  const find = (side: string): number => names.findIndex(([n, bare]) => n === side || bare === side);
  const out: [number, number][] = [];
  for (const [debit, credit] of DEBIT_CREDIT_NAMES) {
    const d = find(debit);
    const c = find(credit);
    if (d >= 0 && c >= 0 && d !== c && !out.some(([a, b]) => a === d || b === c)) out.push([d, c]);
  }
  return out;
}

/**
 * The other side of the debit/credit pair header k is named as (-1: none): "Credit Amount" for "Debit
 * Amount", "Bij" for "Af". The run warns when k is read alone and empty while its other side has a value.
 */
export function debitCreditPartner(headers: readonly string[], k: number): number {
  for (const [d, c] of namedPairs(headers)) {
    if (d === k) return c;
    if (c === k) return d;
  }
  return -1;
}

/** An amount value's marks that a plain number does not have. */
const AMOUNT_MARK =
  /[()]|^\s*[-+]?\s*\p{Sc}|\p{Sc}\s*$|\b(?:cr|dr)\.?\s*$|\d\s*-\s*$|^\s*[A-Z]{3}\s|\s[A-Z]{3}\s*$/iu;

/** Day, month and year groups as dates are written: 31/01/2024, 1.2.24, 2024-01-31, 20240131 (+ a time). */
const DATE_SHAPE =
  /^(?:\d{1,2}([./ -])\d{1,2}\1(?:\d{4}|\d{2})|\d{4}([./-])\d{1,2}\2\d{1,2}|(?:19|20)\d{6})(?:[ T]\d{1,2}:\d{2}.*)?\.?$/;

/** A date column's transform, and its first value when its own dates cannot tell the order. */
interface DateGuess {
  transform: Transform;
  /** Set when every digit date could be day- or month-first (the file's other hints may tell). */
  undecided: string | null;
}

function inferDate(values: readonly string[]): Transform | null {
  return guessDate(values)?.transform ?? null;
}

function guessDate(values: readonly string[]): DateGuess | null {
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
  // Values without a single digit are no dates written another way but lines of words in the date's place
  // (Schwab's "Posted Transactions" above its rows): a few of them among many dates do not make the column
  // text.
  const wordy = values.filter((v) => !/\d/.test(v)).length;
  const counted = wordy <= values.length * 0.25 && dated >= 3 ? values.length - wordy : values.length;
  if (dated === 0 || dated < counted * MIN_SHARE) return null;
  const auto: Transform = { kind: 'date', input: 'auto', output: 'YYYY-MM-DD' };
  if (named > 0 || first === null) return { transform: auto, undecided: null };
  let order: 'DMY' | 'MDY' | 'YMD' | null;
  if (ymdVotes > dmy + mdy + ambiguous) order = 'YMD';
  else if (dmy > 0 || mdy > 0) order = dmy >= mdy ? 'DMY' : 'MDY';
  else order = null;
  if (order === null) return { transform: auto, undecided: first };
  const pattern = patternOf(first, order, g);
  return { transform: { kind: 'date', input: pattern ?? 'auto', output: 'YYYY-MM-DD' }, undecided: null };
}

/** The pattern for a column of `first`-like dates read in `order` ('auto' when it has no digit shape). */
function datePattern(first: string, order: 'DMY' | 'MDY'): string {
  return patternOf(first, order, new DateGroups()) ?? 'auto';
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
    if (booleanWord(k) === null) return null;
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
  const filled = filledOf(values);
  if (filled.length === 0) return null;
  return inferDate(filled) ?? inferBoolean(filled) ?? inferNumber(filled);
}

function filledOf(values: readonly string[]): string[] {
  return values.map((v) => v.trim()).filter((v) => v !== '');
}

/** What the file says about itself beyond its cells. */
export interface FileFacts {
  /** The file's delimiter (`;` is a day-first hint for dates). */
  delimiter?: string;
}

/**
 * The suggested transform of every column of a table (`rows` padded to the header width): debit and
 * credit columns that form a pair become one `debitCredit` amount (credit − debit); an unsigned amount
 * beside a direction column (Af/Bij, D/C, S/H, DR/CR…) an amount with its `sign` from that column; dates
 * that could be day- or month-first are read in the order the rest of the file tells (date-hints.ts).
 */
export function inferColumnTransforms(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  facts: FileFacts = {},
): (Transform | null)[] {
  const columns = headers.map((_, k) => rows.map((r) => r[k] ?? ''));
  const out = columns.map((values): Transform | null => {
    const filled = filledOf(values);
    if (filled.length === 0) return null;
    return inferDate(filled) ?? inferBoolean(filled) ?? inferNumber(filled);
  });
  inferDateOrders(headers, rows, columns, out, facts);
  for (const [d, c] of namedPairs(headers)) {
    const numeric = (k: number) => out[k] === null || out[k]?.kind === 'amount' || out[k]?.kind === 'number';
    const empty = (k: number) => rows.every((r) => (r[k] ?? '').trim() === '');
    if (!numeric(d) || !numeric(c) || (empty(d) && empty(c))) continue;
    if ((out[d] === null && !empty(d)) || (out[c] === null && !empty(c))) {
      // integer-only amounts: still numbers if they parse
      const plain = (k: number) => rows.every((r) => /^\s*-?\d*\s*$/.test(r[k] ?? ''));
      if (!plain(d) || !plain(c)) continue;
    }
    pairDebitCredit(headers, out, d, c);
  }
  inferAlternatingPairs(headers, columns, out);
  inferDirections(headers, columns, out);
  return out;
}

/** Columns d (debit) and c (credit) both get the one transform that makes them a signed amount. */
function pairDebitCredit(headers: readonly string[], out: (Transform | null)[], d: number, c: number): void {
  const pair: Transform = {
    kind: 'debitCredit',
    debitColumn: headers[d],
    creditColumn: headers[c],
    decimals: 2,
  };
  out[d] = pair;
  out[c] = pair;
}

/** The names a file without a header row has its columns called (inspect.ts). */
const UNNAMED = /^Column \d+$/;

/**
 * A file without a header row (columns `Column N`): two neighbouring columns of amounts that are filled
 * alternately — each on some rows, never both on one — are a debit column and a credit column, paired as
 * one signed amount. Money out is the side whose values carry a minus sign (it already says so); when
 * neither does, the left one, as statements order them (Debit then Credit, Soll then Haben, Paid out then
 * Paid in). The pair's run counts each side by its size, so a debit side written negative stays money out.
 */
function inferAlternatingPairs(
  headers: readonly string[],
  columns: readonly string[][],
  out: (Transform | null)[],
): void {
  const amountish = (k: number) => out[k] === null || out[k]?.kind === 'amount' || out[k]?.kind === 'number';
  for (let a = 0; a + 1 < headers.length; a++) {
    const b = a + 1;
    if (!UNNAMED.test(headers[a]) || !UNNAMED.test(headers[b])) continue;
    if (!amountish(a) || !amountish(b)) continue;
    let onlyA = 0;
    let onlyB = 0;
    let negA = 0;
    let negB = 0;
    let clash = false;
    for (let r = 0; r < columns[a].length && !clash; r++) {
      const va = (columns[a][r] ?? '').trim();
      const vb = (columns[b][r] ?? '').trim();
      if (va !== '' && vb !== '') clash = true;
      else if (va !== '') {
        onlyA++;
        if (/^[-−(]|-$/.test(va)) negA++;
      } else if (vb !== '') {
        onlyB++;
        if (/^[-−(]|-$/.test(vb)) negB++;
      }
    }
    if (clash || onlyA === 0 || onlyB === 0) continue;
    const numeric = (k: number) =>
      filledOf(columns[k]).every((v) => inferNumber([v]) !== null || /^[-+]?\d+$/.test(v));
    if (!numeric(a) || !numeric(b)) continue;
    // one side mostly negative and the other not: that side is money out; otherwise left to right
    const aOut = negB > onlyB / 2 && negA <= onlyA / 2 ? false : true;
    const [d, c] = aOut ? [a, b] : [b, a];
    pairDebitCredit(headers, out, d, c);
    a++;
  }
}

/** Date columns whose own values cannot tell day-first from month-first: the file's hints decide. */
function inferDateOrders(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  columns: readonly string[][],
  out: (Transform | null)[],
  facts: FileFacts,
): void {
  const undecided: [number, string][] = [];
  columns.forEach((values, k) => {
    if (out[k]?.kind !== 'date') return;
    const first = guessDate(filledOf(values))?.undecided;
    if (first) undecided.push([k, first]);
  });
  if (undecided.length === 0) return;
  const hints = new FileHints(headers);
  for (const r of rows) {
    for (let k = 0; k < headers.length; k++) {
      const b = Buffer.from(r[k] ?? '', 'utf8');
      hints.add(k, b, 0, b.length);
    }
  }
  for (const [k, first] of undecided) {
    const hint = hints.decide(k, facts.delimiter);
    // Nothing in the file tells: left to the run, which reads month-first and says so in a column note.
    if (!hint.decided) continue;
    out[k] = { kind: 'date', input: datePattern(first, hint.order), output: 'YYYY-MM-DD' };
  }
}

/**
 * Direction columns (values drawn from a pair such as Af/Bij, D/C, S/H, DR/CR, Debit/Credit, in several
 * languages; `[money out…], [money in…]`, lower case).
 */
const DIRECTION_VALUES: readonly (readonly [readonly string[], readonly string[]])[] = [
  [['af'], ['bij']],
  [
    ['d', 'dr', 'db', 'dr.'],
    ['c', 'cr', 'cr.', 'k'],
  ],
  [
    ['debit', 'debet', 'débit', 'debits'],
    ['credit', 'crédit', 'credits', 'kredit'],
  ],
  [['s'], ['h']],
  [['soll'], ['haben']],
  [
    ['withdrawal', 'withdrawals'],
    ['deposit', 'deposits'],
  ],
  [
    ['out', 'paid out', 'money out', 'outgoing'],
    ['in', 'paid in', 'money in', 'incoming'],
  ],
  [['ausgang'], ['eingang']],
  [['belastung', 'lastschrift'], ['gutschrift']],
  [['cargo'], ['abono']],
  [['dare'], ['avere']],
  [
    ['débito', 'debito'],
    ['crédito', 'credito'],
  ],
  [['uttag'], ['insättning']],
  [['dbit'], ['crdt']],
  [['expense'], ['income']],
  [['-'], ['+']],
];

/** Names of columns that hold the direction (used when the sample shows only one side). */
const DIRECTION_NAME =
  /\b(?:af ?bij|bij ?af|direction|richtung|d ?c|dr ?cr|cr ?dr|soll ?haben|s ?h|credit ?debit|debit ?credit|cdtdbtind|sens|signe|cargo ?abono|dare ?avere|in ?out)\b/;
/** Names of the amount a direction column signs, and of balances, which it does not. */
const AMOUNT_NAME =
  /amount|amt|bedrag|betrag|montant|importe|importo|belopp|valor|kwota|beløb|beløp|summe|value|wert|umsatz/;
const BALANCE_NAME = /saldo|balance|kontostand|solde|stand|bal\b/;

/** The money-out values of a direction column (as written), or null when it is not one. */
function directionValues(header: string, values: readonly string[]): string[] | null {
  const seen = new Map<string, string>();
  for (const v of values) {
    const t = v.trim();
    if (t === '') continue;
    const key = t.toLowerCase();
    if (!seen.has(key)) seen.set(key, t);
    if (seen.size > 6) return null;
  }
  if (seen.size === 0) return null;
  const keys = [...seen.keys()];
  for (const [neg, pos] of DIRECTION_VALUES) {
    if (!keys.every((k) => neg.includes(k) || pos.includes(k))) continue;
    const negSeen = keys.filter((k) => neg.includes(k));
    const both = negSeen.length > 0 && keys.some((k) => pos.includes(k));
    if (!both && !DIRECTION_NAME.test(normaliseName(header))) return null;
    if (negSeen.length > 0) return negSeen.map((k) => seen.get(k) as string);
    // only money in seen (under a direction-like name): the pair's money-out word, in the file's case
    const written = seen.get(keys[0]) as string;
    const word = neg[0];
    if (written === written.toUpperCase()) return [word.toUpperCase()];
    if (written[0] === written[0].toUpperCase()) return [word[0].toUpperCase() + word.slice(1)];
    return [word];
  }
  return null;
}

/** Is every filled value an amount written without a sign (no -, (…), DR/CR)? */
function unsigned(values: readonly string[]): boolean {
  let n = 0;
  for (const v of values) {
    const t = v.trim();
    if (t === '') continue;
    if (/^[-(−]|[-)]$|\b(?:cr|dr)\.?$/i.test(t)) return false;
    if (!/\d/.test(t)) return false;
    n++;
  }
  return n > 0;
}

/**
 * Does an amount column already carry the direction column's signs — negative on its money-out rows,
 * positive on the others, on 90 % of the rows both fill, money out seen at least once? Then the direction
 * column only repeats them (PayPal's "Auswirkung auf Guthaben" beside a signed "Brutto"), and signing
 * another, unsigned column from it (a tax, a fee) would be a guess.
 */
function echoesSigns(
  columns: readonly string[][],
  out: readonly (Transform | null)[],
  dir: number,
  negative: readonly string[],
): boolean {
  const neg = new Set(negative.map((v) => v.toLowerCase()));
  return out.some((t, k) => {
    if (k === dir || (t?.kind !== 'amount' && t?.kind !== 'number')) return false;
    let both = 0;
    let agree = 0;
    let outRows = 0;
    columns[k].forEach((v, r) => {
      const a = v.trim();
      const d = (columns[dir][r] ?? '').trim().toLowerCase();
      if (a === '' || d === '' || !/[1-9]/.test(a)) return;
      both++;
      const isOut = neg.has(d);
      if (isOut) outRows++;
      if (isOut === /^[-−(]|-$/.test(a)) agree++;
    });
    return outRows > 0 && both > 0 && agree >= both * 0.9;
  });
}

/** An unsigned amount column beside a direction column: its amount takes the sign from it. */
function inferDirections(
  headers: readonly string[],
  columns: readonly string[][],
  out: (Transform | null)[],
): void {
  headers.forEach((header, dir) => {
    if (out[dir] !== null) return;
    const negative = directionValues(header, columns[dir]);
    if (negative === null) return;
    if (echoesSigns(columns, out, dir, negative)) return;
    let best = -1;
    let bestScore = -Infinity;
    out.forEach((t, k) => {
      if (k === dir) return;
      const name = normaliseName(headers[k]);
      if (BALANCE_NAME.test(name)) return;
      const plainIntegers = t === null && columns[k].every((v) => /^\s*\d*\s*$/.test(v));
      if (t?.kind !== 'amount' && t?.kind !== 'number' && !plainIntegers) return;
      if (t !== null && 'sign' in t && t.sign !== undefined) return;
      if (!unsigned(columns[k])) return;
      const score = (AMOUNT_NAME.test(name) ? 100 : 0) - Math.abs(k - dir);
      if (score > bestScore) {
        bestScore = score;
        best = k;
      }
    });
    if (best < 0) return;
    const was = out[best];
    const comma = was !== null && 'decimalSeparator' in was && was.decimalSeparator === ',';
    out[best] = {
      kind: 'amount',
      decimals: was?.kind === 'amount' ? (was.decimals ?? 2) : 2,
      ...(comma ? { decimalSeparator: ',' as const } : {}),
      sign: { column: header, negative },
    };
  });
}
