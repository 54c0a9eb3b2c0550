// The combine transform's byte path (a combine with nothing after it): the pattern's literals and the
// trimmed fields are joined and written as one cell — no text is decoded. Same result as strings.ts
// combineValues then writeCell (tested): a blank field is dropped with the separator before it, a
// separator's leading space after a space is dropped, the result is trimmed.
//
// The cell is written straight into the output. Whether it needs quotes is known only at the end, so the
// opening quote's byte is left free when the first field was quoted in the file (the likely case), and
// the content is moved by a byte when that guess was wrong. The parser's field flags say whether a field
// can hold a byte that needs quotes, so most field bytes are only copied. What the flags cannot settle —
// a malformed field, a literal holding a quote, a leading + or - under formula protection — takes the
// general path, which joins the cell in a scratch sink and hands it to writeCell. The code is kept small
// on purpose: the row loop runs it with the date and number transforms, and the machine code of all of
// them has to stay in the CPU's instruction cache.
import { F_ESCAPED, F_MALFORMED, F_NEEDS_QUOTE, F_PLAIN, QUOTE, type RecordView } from '../../parser';
import { needsFormulaGuard, writeCell, type ByteSink } from '../../writer';
import { contentInto, type CellOut } from '../cells';
import type { ChainPlan } from '../chain';
import type { Op } from '../plan';

// Module-level copies of imported flags (see mapping/run.ts).
const PLAIN = F_PLAIN;
const ESCAPED = F_ESCAPED;
const MALFORMED = F_MALFORMED;
const NEEDS_QUOTE = F_NEEDS_QUOTE;
const APOS = 0x27;

const isWs = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;

/** Copies src[s, e) to dst at p; says whether a byte makes the cell need quotes (none is a quote). */
function copyChecked(dst: Buffer, p: number, src: Buffer, s: number, e: number, delim: number): boolean {
  let special = false;
  for (let i = s; i < e; i++) {
    const b = src[i];
    dst[p++] = b;
    if (b === delim || b === 0x0a || b === 0x0d) special = true;
  }
  return special;
}

/** Does src[s, e) hold the delimiter, CR or LF (the parser's NEEDS_QUOTE, found again after trimming)? */
function hasSpecial(src: Buffer, s: number, e: number, delim: number): boolean {
  for (let i = s; i < e; i++) {
    const b = src[i];
    if (b === delim || b === 0x0a || b === 0x0d) return true;
  }
  return false;
}

/**
 * `sameDelim`: the file's delimiter is the output's, so a field the parser found needs no quotes needs
 * none on output either. `scratch`: the general path's.
 */
export function mapCombine(out: CellOut, r: RecordView, op: Op, scratch: ByteSink, sameDelim: boolean): void {
  const c = op.chain as ChainPlan;
  if (c.litQuote) {
    combineGeneral(out, r, op, scratch);
    return;
  }
  const lits = c.litBytes;
  const cols = c.combineSrc;
  const delim = out.delim;
  const buf = r.buf;
  const ends = r.ends;
  const base = r.base;
  const sink = out.sink;
  const before = sink.pos;
  /** Where the content starts (set at the first field): after the room for what goes before it. */
  let start = before;
  let p = before;
  /** Room left for an opening quote: the first field is quoted in the file, so the cell likely is. */
  let room = 0;
  let quote = false;
  let guard = false;
  let next = -1;
  for (let k = 0; k < cols.length; k++) {
    const src = cols[k];
    if (src >= r.count) continue;
    const f = r.flagsOf(src);
    const kind = f & 3;
    if (kind === MALFORMED) {
      sink.pos = before;
      combineGeneral(out, r, op, scratch);
      return;
    }
    let s = ends[base + src - 1] + 1;
    let e = ends[base + src];
    if (kind !== PLAIN) {
      s++;
      e--;
    }
    // An escaped field is taken as it stands in the file, "" and all: trimmed, that is the trimmed
    // value already escaped for a quoted cell (which it makes the cell).
    const width = e - s;
    while (s < e && isWs(buf[s])) s++;
    while (e > s && isWs(buf[e - 1])) e--;
    if (s === e) continue;
    const sep = lits[next < 0 ? 0 : next];
    // The cell is trimmed: the first separator's leading white space goes. (The rule that drops a
    // separator's leading space after a space never applies to a later one: the byte before it is the
    // last of a trimmed field.)
    let ss = 0;
    if (next < 0) {
      while (ss < sep.length && isWs(sep[ss])) ss++;
      if (out.protect) {
        // = and @ always; + and - unless the whole cell is a number or phone number (the general path
        // reads it). Tab, CR and LF cannot start a trimmed cell.
        const b0 = ss < sep.length ? sep[ss] : buf[s];
        if (b0 === 0x2b || b0 === 0x2d) {
          combineGeneral(out, r, op, scratch);
          return;
        }
        guard = b0 === 0x3d || b0 === 0x40;
      }
      room = kind !== PLAIN || c.litSpecial || !sameDelim ? 1 : 0;
      start = before + room + (guard ? 1 : 0);
      p = start;
    }
    sink.pos = p;
    sink.ensure(sep.length - ss + (e - s) + 2);
    const ob = sink.buf;
    if (c.litSpecial) {
      if (copyChecked(ob, p, sep, ss, sep.length, delim)) quote = true;
      p += sep.length - ss;
    } else for (let i = ss; i < sep.length; i++) ob[p++] = sep[i];
    sink.pos = p;
    sink.copyFrom(buf, r.view, s, e);
    p = sink.pos;
    // A byte the parser saw that needs quotes is still there when trimming took nothing off; else the
    // field is read again (the first one found settles it). With another delimiter, always.
    if (kind === ESCAPED || (sameDelim && (f & NEEDS_QUOTE) !== 0 && e - s === width)) quote = true;
    else if (!quote && (!sameDelim || (f & NEEDS_QUOTE) !== 0) && hasSpecial(buf, s, e, delim)) quote = true;
    next = k + 1;
  }
  if (next < 0) {
    sink.pos = before;
    return;
  }
  const tail = lits[lits.length - 1];
  let te = tail.length;
  while (te > 0 && isWs(tail[te - 1])) te--;
  sink.pos = p;
  sink.ensure(te + 2);
  const ob = sink.buf;
  if (c.litSpecial) {
    if (copyChecked(ob, p, tail, 0, te, delim)) quote = true;
    p += te;
  } else for (let i = 0; i < te; i++) ob[p++] = tail[i];
  // The content moves by a byte when the guess at the first field was wrong (rarely: a quoted field
  // whose only line break was trimmed off, or a later field that needs the quotes).
  const want = quote ? 1 : 0;
  if (want < room) {
    for (let i = start; i < p; i++) ob[i - 1] = ob[i];
    p--;
  } else if (want > room) {
    for (let i = p; i > start; i--) ob[i] = ob[i - 1];
    p++;
  }
  if (quote) ob[before] = QUOTE;
  if (guard) ob[before + want] = APOS;
  if (quote) ob[p++] = QUOTE;
  sink.pos = p;
}

/** The general path: joins the cell in `scratch` (copying every byte) and writes it with writeCell. */
function combineGeneral(out: CellOut, r: RecordView, op: Op, scratch: ByteSink): void {
  const c = op.chain as ChainPlan;
  const lits = c.litBytes;
  const cols = c.combineSrc;
  scratch.pos = 0;
  let next = -1;
  const delim = out.delim;
  /** Set when a copied byte makes the cell need quotes (then writeCell quotes and escapes it). */
  let special = false;
  for (let k = 0; k < cols.length; k++) {
    const src = cols[k];
    if (src >= r.count) continue;
    const v = contentInto(out.cv, r, src);
    let s = v.s;
    let e = v.e;
    while (s < e && isWs(v.buf[s])) s++;
    while (e > s && isWs(v.buf[e - 1])) e--;
    if (s === e) continue;
    const sep = lits[next < 0 ? 0 : next];
    let ss = 0;
    if (scratch.pos > 0 && scratch.buf[scratch.pos - 1] === 0x20 && sep[0] === 0x20) {
      while (ss < sep.length && isWs(sep[ss])) ss++;
    }
    scratch.ensure(sep.length - ss + (e - s));
    const buf = scratch.buf;
    let p = scratch.pos;
    for (let i = ss; i < sep.length; i++) {
      const b = sep[i];
      buf[p++] = b;
      if (b === 0x22 || b === delim || b === 0x0a || b === 0x0d) special = true;
    }
    const field = v.buf;
    for (let i = s; i < e; i++) {
      const b = field[i];
      buf[p++] = b;
      if (b === 0x22 || b === delim || b === 0x0a || b === 0x0d) special = true;
    }
    scratch.pos = p;
    next = k + 1;
  }
  if (next < 0) return;
  const tail = lits[lits.length - 1];
  scratch.ensure(tail.length);
  for (let i = 0; i < tail.length; i++) {
    const b = tail[i];
    scratch.buf[scratch.pos++] = b;
    if (b === 0x22 || b === delim || b === 0x0a || b === 0x0d) special = true;
  }
  let s = 0;
  let e = scratch.pos;
  while (s < e && isWs(scratch.buf[s])) s++;
  while (e > s && isWs(scratch.buf[e - 1])) e--;
  if (s === e) return;
  if (special || (out.protect && needsFormulaGuard(scratch.buf, s, e))) {
    writeCell(out.sink, scratch.buf, s, e, delim, out.protect);
    return;
  }
  out.sink.ensure(e - s);
  out.sink.bytes(scratch.buf, s, e);
}
