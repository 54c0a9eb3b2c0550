// Date and time cells as a person reads them: which number formats show dates, times or elapsed
// durations, and the text a serial (or an ISO date of a `t="d"` cell) becomes under such a format. Dates
// and times are written as ISO text (`2024-03-31`, `2024-03-31 14:05:00`, `14:05:00`) whatever the
// format's own order; elapsed formats (`[h]:mm:ss`, `[mm]:ss`, `[ss]`) are written as Excel shows them,
// since a duration has no ISO form a target system would read better.

import { csvField } from './shared-strings';

/** Built-in number formats that show dates or times (ECMA-376 §18.8.30, plus common locale ids). */
const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54,
  55, 56, 57, 58,
]);
/** Built-in 46 is `[h]:mm:ss`: an elapsed time, not a time of day. */
const BUILTIN_ELAPSED = 46;

export type DateKind = 'date' | 'datetime' | 'time';

/** One piece of an elapsed format: a unit (its width: 1 or 2 digits at least), or literal text. */
type ElapsedToken = { unit: 'h' | 'm' | 's'; top: boolean; width: number } | { text: string };

/** An elapsed-time format such as `[h]:mm:ss`: the bracketed unit counts on past its usual range. */
export interface ElapsedFormat {
  kind: 'elapsed';
  tokens: ElapsedToken[];
  /** Digits of a second shown after `ss` (`ss.00` → 2). */
  decimals: number;
}

/** What a number format shows, or null for a plain number. */
export type DateFormat = DateKind | ElapsedFormat;

/** A format code's first section with quoted text and escaped characters taken out. */
function bareSection(formatCode: string): string {
  return formatCode
    .split(';')[0]
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .toLowerCase();
}

/** What a number format shows: a date, a date and time, a time of day, an elapsed time, or null. */
export function dateFormatOf(numFmtId: number, formatCode: string | undefined): DateFormat | null {
  if (formatCode === undefined) {
    if (!BUILTIN_DATE_FORMATS.has(numFmtId)) return null;
    if (numFmtId === BUILTIN_ELAPSED) return elapsedFormat('[h]:mm:ss');
    if ([18, 19, 20, 21, 45, 47].includes(numFmtId)) return 'time';
    return numFmtId === 22 ? 'datetime' : 'date';
  }
  const bare = bareSection(formatCode);
  if (/\[(h+|m+|s+)\]/.test(bare)) return elapsedFormat(formatCode);
  // [colour]/[condition]/[$-locale] sections say nothing about dates.
  const f = bare.replace(/\[[^\]]*\]/g, '');
  if (f === 'general' || !/[dmyhs]/.test(f)) return null;
  const hasDate = /[dy]/.test(f) || (/m/.test(f) && !/[hs]/.test(f));
  const hasTime = /[hs]/.test(f);
  if (hasDate && hasTime) return 'datetime';
  return hasDate ? 'date' : 'time';
}

/** Reads an elapsed format's first section into units and literal text. */
function elapsedFormat(formatCode: string): ElapsedFormat {
  const f = formatCode.split(';')[0];
  const tokens: ElapsedToken[] = [];
  let decimals = 0;
  /** `.00` after seconds: its digits (Excel shows at most 3); returns where the format goes on. */
  const readDecimals = (at: number): number => {
    if (f[at] !== '.' || f[at + 1] !== '0') return at;
    let k = at + 1;
    while (f[k] === '0') k++;
    decimals = Math.min(3, k - at - 1);
    return k;
  };
  const text = (t: string) => {
    const last = tokens[tokens.length - 1];
    if (last && 'text' in last) last.text += t;
    else tokens.push({ text: t });
  };
  for (let i = 0; i < f.length;) {
    const ch = f[i];
    const lower = ch.toLowerCase();
    if (ch === '"') {
      const end = f.indexOf('"', i + 1);
      text(f.slice(i + 1, end < 0 ? f.length : end));
      i = end < 0 ? f.length : end + 1;
    } else if (ch === '\\') {
      text(f.slice(i + 1, i + 2));
      i += 2;
    } else if (ch === '_') {
      text(' '); // a space as wide as the next character
      i += 2;
    } else if (ch === '*') {
      i += 2; // fill to the column's width: nothing in a CSV field
    } else if (ch === '[') {
      const end = f.indexOf(']', i);
      const inner = (end < 0 ? f.slice(i + 1) : f.slice(i + 1, end)).toLowerCase();
      i = end < 0 ? f.length : end + 1;
      if (/^(h+|m+|s+)$/.test(inner)) {
        tokens.push({ unit: inner[0] as 'h' | 'm' | 's', top: true, width: inner.length });
        if (inner[0] === 's') i = readDecimals(i);
      } // colours, conditions and locales show nothing
    } else if (lower === 'h' || lower === 'm' || lower === 's') {
      let j = i;
      while (j < f.length && f[j].toLowerCase() === lower) j++;
      tokens.push({ unit: lower, top: false, width: j - i });
      i = lower === 's' ? readDecimals(j) : j;
    } else if (f.startsWith('AM/PM', i) || f.startsWith('am/pm', i)) {
      i += 5; // a clock's half-day marker means nothing on a duration
    } else {
      text(ch);
      i++;
    }
  }
  return { kind: 'elapsed', tokens, decimals };
}

/** A duration in days as an elapsed format shows it: `1.5` under `[h]:mm:ss` → `36:00:00`. */
export function formatElapsed(days: number, format: ElapsedFormat): string {
  const scale = 10 ** format.decimals;
  // Rounded to what the format can show (whole seconds, or its decimals of one), then each unit is cut.
  const units = Math.round(days * 86_400 * scale);
  const seconds = Math.floor(units / scale);
  let out = '';
  for (const t of format.tokens) {
    if ('text' in t) {
      out += t.text;
      continue;
    }
    const total =
      t.unit === 'h' ? Math.floor(seconds / 3600) : t.unit === 'm' ? Math.floor(seconds / 60) : seconds;
    const value = t.top ? total : total % (t.unit === 'h' ? 24 : 60);
    out += String(value).padStart(t.width, '0');
    if (t.unit === 's' && format.decimals > 0) {
      out += '.' + String(units % scale).padStart(format.decimals, '0');
    }
  }
  return out;
}

const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/** A date serial as ISO text: `2024-03-31`, `2024-03-31 14:05:00` or `14:05:00`. */
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

const ISO_DATE = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?)?(?:Z|[+-]\d\d:?\d\d)?$/;
const ISO_TIME = /^T?(\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?$/;

/**
 * The serial of an ISO 8601 date, date-time or time (a `t="d"` cell's text), as Excel stores it once the
 * file is opened; NaN when the text is none of these. The wall-clock time is kept: an offset is not applied.
 */
export function isoToSerial(text: string, date1904: boolean): number {
  const t = text.trim();
  const time = ISO_TIME.exec(t);
  if (time) return secondsOf(time[1], time[2], time[3], time[4]) / 86_400;
  const m = ISO_DATE.exec(t);
  if (!m) return NaN;
  const [, y, mo, d, h, mi, s, frac] = m;
  const day = Date.UTC(Number(y), Number(mo) - 1, Number(d));
  const date = new Date(day);
  if (date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d)) return NaN;
  let days = (day - (date1904 ? EPOCH_1904 : EPOCH_1900)) / DAY_MS;
  if (!date1904 && days <= 60) days -= 1; // before the phantom 29 February 1900 (see serialToIso)
  if (days < 0) return NaN; // before the epoch: Excel keeps such a date as text
  return h === undefined ? days : days + secondsOf(h, mi, s, frac) / 86_400;
}

function secondsOf(h: string, m: string, s = '0', frac = ''): number {
  return Number(h) * 3600 + Number(m) * 60 + Number(s) + (frac ? Number(frac) : 0);
}

/** A date serial as the text its format shows. */
export function formatSerial(serial: number, date1904: boolean, format: DateFormat): string {
  return typeof format === 'string' ? serialToIso(serial, date1904, format) : formatElapsed(serial, format);
}

/** How many serials one format remembers before it starts again. */
const CACHE_SIZE = 4096;

/**
 * The bytes of date serials already shown, per format (a statement's rows share a handful of days). The
 * key is the serial itself, fraction and all, so two times of one day never share an entry.
 */
export class DateBytes {
  private readonly byFormat = new Map<DateFormat, Map<number, Buffer>>();
  private lastFormat: DateFormat | null = null;
  private last = new Map<number, Buffer>();

  constructor(private readonly date1904: boolean) {}

  of(serial: number, format: DateFormat): Buffer {
    if (format !== this.lastFormat) {
      let cache = this.byFormat.get(format);
      if (!cache) {
        cache = new Map();
        this.byFormat.set(format, cache);
      }
      this.lastFormat = format;
      this.last = cache;
    }
    let bytes = this.last.get(serial);
    if (!bytes) {
      // Elapsed formats may carry literal text: the bytes are a CSV field, quoted when they must be.
      bytes = Buffer.from(csvField(formatSerial(serial, this.date1904, format)), 'utf8');
      if (this.last.size >= CACHE_SIZE) this.last.clear();
      this.last.set(serial, bytes);
    }
    return bytes;
  }
}
