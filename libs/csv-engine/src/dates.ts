// Dates: patterns with the tokens YYYY YY MM M DD D and any separators. Values are read on bytes as three
// digit groups in the column's order (DMY, MDY or YMD, decided once per column), with a string fallback
// for month names ("15 Jan 2024", "Jan 15, 2024", "15. März 2024").
import type { ByteSink } from './writer';

export type DateOrder = 'DMY' | 'MDY' | 'YMD';

type Token = 'YYYY' | 'YY' | 'MM' | 'M' | 'DD' | 'D';
export type DatePart = { token: Token } | { literal: Buffer };

const TOKEN_RE = /YYYY|YY|MM|M|DD|D/g;

export function compilePattern(pattern: string): DatePart[] {
  const parts: DatePart[] = [];
  let last = 0;
  for (const m of pattern.matchAll(TOKEN_RE)) {
    const at = m.index as number;
    if (at > last) parts.push({ literal: Buffer.from(pattern.slice(last, at), 'utf8') });
    parts.push({ token: m[0] as Token });
    last = at + m[0].length;
  }
  if (last < pattern.length) parts.push({ literal: Buffer.from(pattern.slice(last), 'utf8') });
  return parts;
}

/** Order and widths of an input pattern: 'DD/MM/YYYY' → DMY; 'YYYYMMDD' keeps widths for compact values. */
export function patternOrder(pattern: string): { order: DateOrder; widths: number[] } | null {
  const tokens = compilePattern(pattern).filter((p): p is { token: Token } => 'token' in p);
  if (tokens.length !== 3) return null;
  const letters = tokens.map((t) => t.token[0]).join('');
  if (letters !== 'DMY' && letters !== 'MDY' && letters !== 'YMD') return null;
  return { order: letters as DateOrder, widths: tokens.map((t) => t.token.length) };
}

export function isValidPattern(pattern: string): boolean {
  const tokens = compilePattern(pattern).filter((p) => 'token' in p);
  const letters = new Set(tokens.map((t) => ('token' in t ? t.token[0] : '')));
  return tokens.length > 0 && letters.size === tokens.length;
}

/** Parsed digit groups of a date value. */
export class DateGroups {
  v = new Int32Array(3);
  len = new Int32Array(3);
  n = 0;
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}

/**
 * Reads up to three digit groups separated by / . - space or comma. Returns false when the value holds
 * anything else before the third group (letters: use the string fallback). A time after the date
 * (" 10:30", "T10:30:00Z") is ignored.
 */
export function readGroups(buf: Buffer, s: number, e: number, g: DateGroups): boolean {
  let i = s;
  while (i < e && buf[i] === 0x20) i++;
  let n = 0;
  while (i < e && n < 3) {
    const b = buf[i];
    if (!isDigit(b)) return false;
    let v = 0;
    let len = 0;
    while (i < e && isDigit(buf[i])) {
      if (len < 9) v = v * 10 + buf[i] - 0x30;
      len++;
      i++;
    }
    g.v[n] = v;
    g.len[n] = len;
    n++;
    if (n === 3 || i >= e) break;
    // separators between groups: one or two of / . - space ,
    let seps = 0;
    while (i < e && seps < 3) {
      const c = buf[i];
      if (c === 0x2f || c === 0x2e || c === 0x2d || c === 0x20 || c === 0x2c) {
        i++;
        seps++;
      } else break;
    }
    if (seps === 0) return false;
    if (n < 3 && i >= e) return false;
  }
  g.n = n;
  if (i < e) {
    // allowed tails: a time, a trailing dot ("15.01.2024."), spaces
    const c = buf[i];
    if (c === 0x2e && i + 1 === e) return true;
    if (c !== 0x20 && c !== 0x54) return false;
  }
  return true;
}

/** A separator readGroups accepts between groups: / . - space , */
function isDateSep(b: number): boolean {
  return b === 0x2f || b === 0x2e || b === 0x2d || b === 0x20 || b === 0x2c;
}

/** Two ASCII digits at i as a number, or -1. */
function two(buf: Buffer, i: number): number {
  const a = buf[i] - 0x30;
  const b = buf[i + 1] - 0x30;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * Fast path for the 10-byte shapes DD/MM/YYYY, MM/DD/YYYY (order DMY or MDY) and YYYY-MM-DD (YMD), any
 * separators readGroups accepts. Fills `out` and returns true only for a valid date; anything else
 * (other shapes, invalid days) returns false and takes the general path, which gives the same date or the reason.
 */
export function readDate10(buf: Buffer, s: number, order: DateOrder, out: Ymd): boolean {
  let y: number;
  let m: number;
  let d: number;
  if (order === 'YMD') {
    if (!isDateSep(buf[s + 4]) || !isDateSep(buf[s + 7])) return false;
    const hi = two(buf, s);
    const lo = two(buf, s + 2);
    m = two(buf, s + 5);
    d = two(buf, s + 8);
    if (hi < 0 || lo < 0) return false;
    y = hi * 100 + lo;
  } else {
    if (!isDateSep(buf[s + 2]) || !isDateSep(buf[s + 5])) return false;
    const a = two(buf, s);
    const b = two(buf, s + 3);
    const hi = two(buf, s + 6);
    const lo = two(buf, s + 8);
    if (hi < 0 || lo < 0) return false;
    y = hi * 100 + lo;
    if (order === 'DMY') {
      d = a;
      m = b;
    } else {
      m = a;
      d = b;
    }
  }
  if (m < 1 || m > 12 || d < 1 || d > daysIn(y, m)) return false;
  out.y = y;
  out.m = m;
  out.d = d;
  return true;
}

function daysIn(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

function fullYear(v: number, len: number): number {
  if (len === 4) return v;
  // Two-digit years: 00–69 → 2000s, 70–99 → 1900s (the POSIX strptime pivot).
  return v < 70 ? 2000 + v : 1900 + v;
}

export interface Ymd {
  y: number;
  m: number;
  d: number;
}

/** Assigns the groups by order and validates. Returns a reason string on failure. */
export function groupsToDate(
  g: DateGroups,
  order: DateOrder,
  widths: number[] | null,
  out: Ymd,
): string | null {
  let a0 = g.v[0];
  let a1 = g.v[1];
  let a2 = g.v[2];
  let l0 = g.len[0];
  let l1 = g.len[1];
  let l2 = g.len[2];
  if (g.n === 1) {
    // compact: YYYYMMDD / DDMMYYYY
    const w = widths && widths.length === 3 ? widths : order === 'YMD' ? [4, 2, 2] : [2, 2, 4];
    if (g.len[0] !== w[0] + w[1] + w[2] || g.len[0] > 9) return 'not a date';
    const v = g.v[0];
    const p2 = 10 ** w[2];
    const p1 = 10 ** w[1];
    a2 = v % p2;
    a1 = Math.floor(v / p2) % p1;
    a0 = Math.floor(v / (p2 * p1));
    l0 = w[0];
    l1 = w[1];
    l2 = w[2];
  } else if (g.n !== 3) return 'not a date';
  let y: number;
  let m: number;
  let d: number;
  if (order === 'YMD') {
    if (l0 !== 4) return `does not match the column's year-first format`;
    y = a0;
    m = a1;
    d = a2;
    if (l1 > 2 || l2 > 2) return 'not a date';
  } else {
    if (l2 !== 4 && l2 !== 2) return 'year is not 2 or 4 digits';
    if (l0 > 2 || l1 > 2) return 'not a date';
    y = fullYear(a2, l2);
    if (order === 'DMY') {
      d = a0;
      m = a1;
    } else {
      m = a0;
      d = a1;
    }
  }
  if (m < 1 || m > 12)
    return order === 'YMD'
      ? 'month is not 1–12'
      : `month ${m} is not 1–12 (column read as ${order === 'DMY' ? 'day-first' : 'month-first'})`;
  if (d < 1 || d > daysIn(y, m)) return `day ${d} does not exist in that month`;
  out.y = y;
  out.m = m;
  out.d = d;
  return null;
}

const MONTHS: Record<string, number> = {};
[
  ['jan', 'janv', 'januar', 'janvier', 'enero', 'ene', 'gen', 'januari', 'jänner', 'jän'],
  ['feb', 'febr', 'februar', 'février', 'fevrier', 'févr', 'fev', 'febrero', 'februari', 'febbraio'],
  ['mar', 'mär', 'märz', 'maerz', 'mars', 'marzo', 'maart', 'mrt'],
  ['apr', 'april', 'avril', 'avr', 'abril', 'abr', 'aprile'],
  ['may', 'mai', 'mayo', 'mei', 'maggio', 'mag'],
  ['jun', 'june', 'juni', 'juin', 'junio', 'giugno', 'giu'],
  ['jul', 'july', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug'],
  ['aug', 'august', 'août', 'aout', 'agosto', 'ago', 'augustus'],
  ['sep', 'sept', 'september', 'septembre', 'septiembre', 'set', 'settembre'],
  ['oct', 'okt', 'october', 'oktober', 'octobre', 'octubre', 'ottobre', 'ott'],
  ['nov', 'november', 'novembre', 'noviembre'],
  ['dec', 'dez', 'december', 'dezember', 'décembre', 'decembre', 'déc', 'dic', 'diciembre', 'dicembre'],
].forEach((names, k) => names.forEach((n) => (MONTHS[n] = k + 1)));
['january', 'march', 'october'].forEach((n, k) => (MONTHS[n] = [1, 3, 10][k]));

/** String fallback: dates with a month name. Day and year are told apart by size and position. */
export function parseDateWithMonthName(value: string, out: Ymd): string | null {
  const tokens = value
    .toLowerCase()
    .replace(/t\d{1,2}:\d{2}.*$/, '')
    .split(/[\s,./-]+/)
    .filter((t) => t !== '');
  let month = 0;
  const nums: string[] = [];
  for (const t of tokens) {
    if (/^\d+$/.test(t)) nums.push(t);
    else if (/^\d{1,2}:\d{2}/.test(t) || /^(am|pm)$/.test(t)) break;
    else if (/^\d{1,2}(st|nd|rd|th|er|e|º|°)$/.test(t)) nums.push(t.replace(/\D+$/, ''));
    else if (MONTHS[t] !== undefined && month === 0) month = MONTHS[t];
    else if (
      /^(mon|tue|wed|thu|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mo|di|mi|do|fr|sa|so)$/.test(
        t,
      )
    )
      continue;
    else return 'not a date';
  }
  if (month === 0 || nums.length !== 2) return 'not a date';
  let day: string;
  let year: string;
  if (nums[0].length === 4 || Number(nums[0]) > 31) [year, day] = nums;
  else [day, year] = nums;
  if (year.length !== 4 && year.length !== 2) return 'not a date';
  const y = fullYear(Number(year), year.length);
  const d = Number(day);
  if (d < 1 || d > daysIn(y, month)) return `day ${d} does not exist in that month`;
  out.y = y;
  out.m = month;
  out.d = d;
  return null;
}

const T_YYYY = -1;
const T_YY = -2;
const T_MM = -3;
const T_M = -4;
const T_DD = -5;
const T_D = -6;
const TOKEN_CODE: Record<Token, number> = { YYYY: T_YYYY, YY: T_YY, MM: T_MM, M: T_M, DD: T_DD, D: T_D };

/** Flattens an output pattern: negative codes are tokens, others literal bytes. */
export function compileOutput(pattern: string): Int32Array {
  const codes: number[] = [];
  for (const p of compilePattern(pattern)) {
    if ('token' in p) codes.push(TOKEN_CODE[p.token]);
    else for (const b of p.literal) codes.push(b);
  }
  return Int32Array.from(codes);
}

export function writeDate(sink: ByteSink, codes: Int32Array, v: Ymd): void {
  sink.ensure(codes.length * 2 + 4);
  const buf = sink.buf;
  let pos = sink.pos;
  const y = v.y;
  const m = v.m;
  const d = v.d;
  for (let k = 0; k < codes.length; k++) {
    const c = codes[k];
    if (c >= 0) {
      buf[pos++] = c;
      continue;
    }
    switch (c) {
      case T_YYYY:
        buf[pos++] = 0x30 + (((y / 1000) | 0) % 10);
        buf[pos++] = 0x30 + (((y / 100) | 0) % 10);
        buf[pos++] = 0x30 + (((y / 10) | 0) % 10);
        buf[pos++] = 0x30 + (y % 10);
        break;
      case T_YY:
        buf[pos++] = 0x30 + (((y / 10) | 0) % 10);
        buf[pos++] = 0x30 + (y % 10);
        break;
      case T_MM:
        buf[pos++] = 0x30 + ((m / 10) | 0);
        buf[pos++] = 0x30 + (m % 10);
        break;
      case T_DD:
        buf[pos++] = 0x30 + ((d / 10) | 0);
        buf[pos++] = 0x30 + (d % 10);
        break;
      case T_M:
        if (m >= 10) buf[pos++] = 0x31;
        buf[pos++] = 0x30 + (m % 10);
        break;
      default:
        if (d >= 10) buf[pos++] = 0x30 + ((d / 10) | 0);
        buf[pos++] = 0x30 + (d % 10);
    }
  }
  sink.pos = pos;
}

/** What one value says about the column's order. */
export type DateVote = DateOrder | 'ambiguous' | 'text' | 'invalid';

export function voteDate(buf: Buffer, s: number, e: number, g: DateGroups): DateVote {
  // The 10-byte shapes first (the sample is read before the code is warm: fewer steps matter here).
  if (e - s === 10) {
    if (isDateSep(buf[s + 2]) && isDateSep(buf[s + 5])) {
      const a = two(buf, s);
      const b = two(buf, s + 3);
      if (a >= 0 && b >= 0 && two(buf, s + 6) >= 0 && two(buf, s + 8) >= 0) return voteOrder(a, b);
    } else if (isDateSep(buf[s + 4]) && isDateSep(buf[s + 7])) {
      if (two(buf, s) >= 0 && two(buf, s + 2) >= 0 && two(buf, s + 5) >= 0 && two(buf, s + 8) >= 0)
        return 'YMD';
    }
  }
  if (!readGroups(buf, s, e, g)) return 'text';
  if (g.n === 1)
    return g.len[0] === 8 && Math.floor(g.v[0] / 10000) >= 1900 && Math.floor(g.v[0] / 10000) <= 2100
      ? 'YMD'
      : 'invalid';
  if (g.n !== 3) return 'invalid';
  if (g.len[0] === 4) return 'YMD';
  return voteOrder(g.v[0], g.v[1]);
}

/** The vote of a date whose first two groups are a and b (day and month in some order). */
function voteOrder(a: number, b: number): DateVote {
  if (a > 12 && b <= 12) return 'DMY';
  if (b > 12 && a <= 12) return 'MDY';
  if (a <= 12 && b <= 12) return 'ambiguous';
  return 'invalid';
}
