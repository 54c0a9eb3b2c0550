// Cell values as a person sees them in Excel: numbers at the 15 significant digits Excel keeps (no float
// noise, no exponent), date serials as ISO dates (1900 or 1904 system), booleans as TRUE/FALSE.

/** Built-in number formats that show dates or times (ECMA-376 §18.8.30, plus common locale ids). */
const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54,
  55, 56, 57, 58,
]);

export type DateKind = 'date' | 'datetime' | 'time';

/** What a number format shows: a date, a date and time, a time of day, or a plain number (null). */
export function dateKindOf(numFmtId: number, formatCode: string | undefined): DateKind | null {
  if (formatCode === undefined) {
    if (!BUILTIN_DATE_FORMATS.has(numFmtId)) return null;
    if ([18, 19, 20, 21, 45, 46, 47].includes(numFmtId)) return 'time';
    return numFmtId === 22 ? 'datetime' : 'date';
  }
  // Quoted text, escaped characters and [colour]/[condition] sections say nothing about dates.
  const f = formatCode
    .split(';')[0]
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[(?!h\]|hh\]|m\]|mm\]|s\]|ss\])[^\]]*\]/gi, '')
    .toLowerCase();
  if (f === 'general' || !/[dmyhs]/.test(f)) return null;
  const hasDate = /[dy]/.test(f) || (/m/.test(f) && !/[hs]/.test(f));
  const hasTime = /[hs]/.test(f);
  if (hasDate && hasTime) return 'datetime';
  return hasDate ? 'date' : 'time';
}

const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/**
 * A date serial as ISO text: `2024-03-31`, `2024-03-31 14:05:00` or `14:05:00`. (The sheet scanner keeps
 * the bytes of the dates it has seen, so repeated dates do not come here.)
 */
export function serialToIso(serial: number, date1904: boolean, kind: DateKind): string {
  let days = Math.floor(serial);
  // Excel's 1900 system counts a 29 February 1900 that never was: serials before it are one day early.
  if (!date1904 && days < 60) days += 1;
  const seconds = Math.round((serial - Math.floor(serial)) * 86_400);
  const ms = (date1904 ? EPOCH_1904 : EPOCH_1900) + days * DAY_MS + seconds * 1000;
  const iso = new Date(ms).toISOString();
  const date = iso.slice(0, 10);
  const time = iso.slice(11, 19);
  if (kind === 'time') return time;
  if (kind === 'datetime') return `${date} ${time}`;
  return date;
}

const PLAIN = /^-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;

/** A stored number as Excel shows it at full precision: 15 significant digits, plain notation. */
export function formatNumber(raw: string): string {
  // Most stored numbers are already plain and short (≤ 15 significant digits, no trailing zeros).
  if (raw.length <= 16 && PLAIN.test(raw)) return raw === '-0' ? '0' : raw;
  const n = Number(raw);
  if (!Number.isFinite(n)) return raw.trim();
  if (n === 0) return '0';
  const s = String(Number(n.toPrecision(15)));
  return s.includes('e') ? expand(s) : s;
}

/** `1.5e-7` → `0.00000015`, `1e+21` → `1000000000000000000000`. */
function expand(s: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, int, frac = '', expText] = m;
  const exp = Number(expText);
  const digits = int + frac;
  const point = int.length + exp;
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`.replace(/0+$/, '');
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
