// Reading numbers and amounts on bytes: decimal comma or point (decided per column), thousands separators
// (. , space, apostrophe, no-break spaces) in groups of three, currency symbols and codes, (12.50),
// 12.50-, 12.50 CR/DR. Writing them back as plain signed numbers with exact decimal rounding.
import type { ByteSink } from './writer';

const D0 = 0x30;
const POW10_MICRO = [100000, 10000, 1000, 100, 10, 1];
const DOT = 0x2e;
const COMMA = 0x2c;
const MAX_DIGITS = 30;

/** Scratch for one parsed number: digits[1..1+intLen+fracLen) (digits[0] is room for a carry). */
export class NumberScratch {
  digits = new Uint8Array(2 + MAX_DIGITS * 2);
  intLen = 0;
  fracLen = 0;
  neg = false;
  /** Integer part as a number (exact while intLen <= 15) and the first 6 fraction digits in millionths. */
  intVal = 0;
  micro = 0;
}

export type NumberMode = 'number' | 'amount';

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}
function isLetter(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
}

/** Length of a no-break space (C2 A0) or narrow no-break space (E2 80 AF) at i, else 0. */
function nbspAt(buf: Buffer, i: number, e: number): number {
  if (buf[i] === 0xc2 && i + 1 < e && buf[i + 1] === 0xa0) return 2;
  if (buf[i] === 0xe2 && i + 2 < e && buf[i + 1] === 0x80 && buf[i + 2] === 0xaf) return 3;
  return 0;
}

/** Length of the UTF-8 character starting at i (for skipping currency symbols such as € £ ¥ ₹). */
function utf8Len(b: number): number {
  return b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
}

/**
 * Parses [s,e) into `out`. `dec` is the decimal separator byte (0x2e or 0x2c); the other one is a
 * thousands separator. Returns null on success or the reason the value cannot be read.
 */
export function parseNumberBytes(
  buf: Buffer,
  s: number,
  e: number,
  dec: number,
  mode: NumberMode,
  out: NumberScratch,
): string | null {
  const amount = mode === 'amount';
  const thou = dec === DOT ? COMMA : DOT;
  const d = out.digits;
  let intLen = 0;
  let fracLen = 0;
  let neg = false;
  let intVal = 0;
  let micro = 0;
  let paren = false;
  let seenDigit = false;
  let i = s;
  // prefix: spaces, sign, '(', currency
  while (i < e) {
    const b = buf[i];
    if (isDigit(b) || b === dec) break;
    if (b === 0x20 || b === 0x09) i++;
    else if (b === 0x2d && !neg) {
      neg = true;
      i++;
    } else if (b === 0x2b) i++;
    else if (amount && b === 0x28 && !paren) {
      paren = true;
      i++;
    } else if (amount && (b === 0x24 || isLetter(b))) {
      let j = i;
      while (j < e && (isLetter(buf[j]) || buf[j] === 0x24)) j++;
      if (j - i > 3) return 'not a number';
      i = j;
      if (i < e && buf[i] === DOT) i++; // "Fr."
    } else if (amount && b >= 0x80) {
      const n = nbspAt(buf, i, e);
      i += n || utf8Len(b);
    } else return 'not a number';
  }
  // digits
  let groupLen = 0;
  let groups = 0; // thousands separators seen
  let inFrac = false;
  while (i < e) {
    const b = buf[i];
    if (isDigit(b)) {
      seenDigit = true;
      if (inFrac) {
        if (fracLen >= MAX_DIGITS) return 'too many digits';
        if (fracLen < 6) micro += (b - D0) * POW10_MICRO[fracLen];
        d[1 + intLen + fracLen++] = b - D0;
      } else {
        if (intLen === 0 && b === D0) {
          // leading zeros carry no value
        } else {
          if (intLen >= MAX_DIGITS) return 'too many digits';
          intVal = intVal * 10 + (b - D0);
          d[1 + intLen++] = b - D0;
        }
        groupLen++;
      }
      i++;
      continue;
    }
    if (b === dec) {
      if (inFrac) return 'more than one decimal separator';
      if (groups > 0 && groupLen !== 3) return 'misplaced thousands separator';
      inFrac = true;
      i++;
      continue;
    }
    let sepLen = 0;
    if (b === thou || b === 0x27 || b === 0x20) sepLen = 1;
    else if (b >= 0x80) sepLen = nbspAt(buf, i, e);
    if (sepLen > 0 && i + sepLen < e && isDigit(buf[i + sepLen]) && seenDigit) {
      if (inFrac) return 'thousands separator after the decimal separator';
      if (groups === 0) {
        if (groupLen > 3) return 'misplaced thousands separator';
      } else if (groupLen !== 3) return 'misplaced thousands separator';
      groups++;
      groupLen = 0;
      i += sepLen;
      continue;
    }
    if (b === thou)
      return dec === COMMA ? 'unexpected "." in a decimal-comma column' : 'misplaced thousands separator';
    break;
  }
  if (groups > 0 && !inFrac && groupLen !== 3) return 'misplaced thousands separator';
  if (!seenDigit) return 'no digits';
  // suffix: spaces, trailing minus, ')', currency, CR/DR
  while (i < e) {
    const b = buf[i];
    if (b === 0x20 || b === 0x09) i++;
    else if (b === 0x2d && !neg && amount) {
      neg = true;
      i++;
    } else if (b === 0x29 && paren) {
      paren = false;
      neg = true;
      i++;
    } else if (amount && (b === 0x24 || isLetter(b))) {
      let j = i;
      while (j < e && (isLetter(buf[j]) || buf[j] === 0x24)) j++;
      if (j - i === 2) {
        const w = ((buf[i] | 0x20) << 8) | (buf[i + 1] | 0x20);
        if (w === 0x6472 /* dr */) neg = true;
        else if (w !== 0x6372 /* cr */ && !isCurrencyPair(buf, i)) return 'not a number';
      } else if (j - i > 3) return 'not a number';
      i = j;
      if (i < e && buf[i] === DOT) i++;
    } else if (amount && b >= 0x80) {
      const n = nbspAt(buf, i, e);
      i += n || utf8Len(b);
    } else return 'not a number';
  }
  if (paren) return 'unbalanced parenthesis';
  out.intLen = intLen;
  out.fracLen = fracLen;
  out.neg = neg;
  out.intVal = intVal;
  out.micro = micro;
  return null;
}

/**
 * Fast path for the plain shapes: an optional minus, digits with `dec`'s thousands separator in groups of
 * three, an optional decimal part, nothing else (up to 24 bytes). Fills `out` exactly as parseNumberBytes
 * would and returns true; anything else returns false and takes the general path.
 */
export function parseSimpleNumber(
  buf: Buffer,
  s: number,
  e: number,
  dec: number,
  out: NumberScratch,
): boolean {
  if (e - s > 24) return false;
  const thou = dec === DOT ? COMMA : DOT;
  const d = out.digits;
  let i = s;
  let neg = false;
  if (buf[i] === 0x2d) {
    neg = true;
    i++;
  }
  let intLen = 0;
  let intVal = 0;
  let groupLen = 0;
  let groups = 0;
  let digits = 0;
  while (i < e) {
    const b = buf[i];
    if (b >= 0x30 && b <= 0x39) {
      if (intLen > 0 || b !== D0) {
        intVal = intVal * 10 + (b - D0);
        d[1 + intLen++] = b - D0;
      }
      groupLen++;
      digits++;
      i++;
    } else if (b === thou) {
      if (groupLen === 0 || groupLen > 3 || (groups > 0 && groupLen !== 3)) return false;
      groups++;
      groupLen = 0;
      i++;
    } else break;
  }
  if (digits === 0 || (groups > 0 && groupLen !== 3)) return false;
  let fracLen = 0;
  let micro = 0;
  if (i < e) {
    if (buf[i] !== dec) return false;
    i++;
    while (i < e) {
      const b = buf[i];
      if (b < 0x30 || b > 0x39) return false;
      if (fracLen < 6) micro += (b - D0) * POW10_MICRO[fracLen];
      d[1 + intLen + fracLen++] = b - D0;
      i++;
    }
  }
  out.intLen = intLen;
  out.fracLen = fracLen;
  out.neg = neg;
  out.intVal = intVal;
  out.micro = micro;
  return true;
}

// Two-letter currency marks other than CR/DR (kr, Fr, zł is non-ASCII anyway).
function isCurrencyPair(buf: Buffer, i: number): boolean {
  const w = ((buf[i] | 0x20) << 8) | (buf[i + 1] | 0x20);
  return w === 0x6b72 /* kr */ || w === 0x6672 /* fr */ || w === 0x6c65 /* le */ || w === 0x726d; /* rm */
}

/** Rounds half away from zero to `decimals` fraction digits, in place. */
export function roundScratch(n: NumberScratch, decimals: number): void {
  if (n.fracLen <= decimals) return;
  roundDigits(n, decimals);
  recomputeValue(n);
}

/** Recomputes intVal/micro from the digits (after rounding or arithmetic). */
export function recomputeValue(n: NumberScratch): void {
  const d = n.digits;
  let v = 0;
  for (let k = 1; k <= n.intLen; k++) v = v * 10 + d[k];
  let m = 0;
  for (let k = 0; k < 6; k++) m = m * 10 + (k < n.fracLen ? d[1 + n.intLen + k] : 0);
  n.intVal = v;
  n.micro = m;
}

function roundDigits(n: NumberScratch, decimals: number): void {
  const d = n.digits;
  const cut = 1 + n.intLen + decimals;
  const up = d[cut] >= 5;
  n.fracLen = decimals;
  if (!up) return;
  let k = cut - 1;
  while (k >= 1) {
    if (d[k] === 9) {
      d[k] = 0;
      k--;
    } else {
      d[k]++;
      return;
    }
  }
  // carry out of the most significant digit: shift right by one
  for (let j = 1 + n.intLen + n.fracLen; j > 1; j--) d[j] = d[j - 1];
  d[1] = 1;
  n.intLen++;
}

function isZero(n: NumberScratch): boolean {
  // intVal and micro are exact for up to 15 integer and 6 fraction digits: no digit loop for usual values.
  if (n.intLen <= 15 && n.fracLen <= 6) return n.intVal + n.micro === 0;
  const d = n.digits;
  for (let k = 1; k < 1 + n.intLen + n.fracLen; k++) if (d[k] !== 0) return false;
  return true;
}

/**
 * Writes the number as plain text: optional minus or parentheses, integer digits (at least 0), '.', and
 * exactly `decimals` fraction digits (or the digits as read when decimals < 0).
 */
export function writeNumber(sink: ByteSink, n: NumberScratch, decimals: number, parentheses: boolean): void {
  if (decimals >= 0) roundScratch(n, decimals);
  const neg = n.neg && !isZero(n);
  const fd = decimals >= 0 ? decimals : n.fracLen;
  sink.ensure(n.intLen + fd + 4);
  const buf = sink.buf;
  let p = sink.pos;
  const d = n.digits;
  if (neg) buf[p++] = parentheses ? 0x28 : 0x2d;
  // "0" before the point when there is no integer digit, written without a branch of its own (a branch
  // first taken late, e.g. at the first 0,50, would throw the optimised code away).
  buf[p] = D0;
  p += n.intLen === 0 ? 1 : 0;
  for (let k = 1; k <= n.intLen; k++) buf[p++] = D0 + d[k];
  if (fd > 0) {
    buf[p++] = DOT;
    for (let k = 0; k < fd; k++) buf[p++] = k < n.fracLen ? D0 + d[1 + n.intLen + k] : D0;
  }
  if (neg && parentheses) buf[p++] = 0x29;
  sink.pos = p;
}

/** Plain-text value of the scratch (for sums and string fallbacks). */
export function scratchToString(n: NumberScratch): string {
  const d = n.digits;
  let s = n.neg && !isZero(n) ? '-' : '';
  if (n.intLen === 0) s += '0';
  for (let k = 1; k <= n.intLen; k++) s += String(d[k]);
  if (n.fracLen > 0) {
    s += '.';
    for (let k = 0; k < n.fracLen; k++) s += String(d[1 + n.intLen + k]);
  }
  return s;
}

/**
 * Votes the decimal separator of the value buf[s, e): ',' or '.', null when the value alone cannot tell
 * ("12" has no separator), or 'thousands?' when its one separator may as well group thousands ("1,234").
 */
export function voteDecimal(buf: Buffer, s: number, e: number): ',' | '.' | 'thousands?' | null {
  let lastDot = -1;
  let lastComma = -1;
  let dots = 0;
  let commas = 0;
  for (let i = s; i < e; i++) {
    const b = buf[i];
    if (b === DOT) {
      lastDot = i;
      dots++;
    } else if (b === COMMA) {
      lastComma = i;
      commas++;
    }
  }
  if (lastDot >= 0 && lastComma >= 0) return lastDot > lastComma ? '.' : ',';
  const pos = lastDot >= 0 ? lastDot : lastComma;
  if (pos < 0) return null;
  const sep = buf[pos];
  // repeated: thousands
  if ((sep === DOT ? dots : commas) > 1) return sep === DOT ? ',' : '.';
  let digitsAfter = 0;
  for (let k = pos + 1; k < e && isDigit(buf[k]); k++) digitsAfter++;
  if (digitsAfter === 3) return pos > s && isDigit(buf[pos - 1]) ? 'thousands?' : null;
  if (digitsAfter === 0) return null;
  // a separator with no digits before it (",5") or not 3 after is a decimal separator
  return sep === DOT ? '.' : ',';
}
