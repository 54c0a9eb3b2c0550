// The combine transform's byte path (a combine with nothing after it): the pattern's literals and the
// trimmed fields are joined and written as one cell — no text is decoded. Same result as strings.ts
// combineValues then writeCell (tested): a blank field is dropped with the separator before it, a
// separator's leading space after a space is dropped, the result is trimmed.
//
// The cell is first laid out as pieces (spans of the record or of a literal), then written straight into
// the output: the parser's field flags say whether a field needs quotes, so the field bytes are read only
// to trim and copy them. What the flags cannot settle — a malformed field, a literal holding a quote, a
// leading + or - under formula protection — takes the general path, which joins the cell in a scratch sink
// and hands it to writeCell.
import { F_ESCAPED, F_MALFORMED, F_NEEDS_QUOTE, F_PLAIN, QUOTE, type RecordView } from '../../parser';
import { ByteSink, needsFormulaGuard, writeCell } from '../../writer';
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

/** The record itself as a piece's source (else the index of a literal). */
const RECORD = -1;

/**
 * The pieces of one combined cell (reused row after row) and the general path's scratch sink. A piece is
 * numbers only — its source (RECORD or a literal's index) and span — so laying out a cell stores no
 * object reference (each would cost a write barrier).
 */
export class CombineScratch {
  from: Int32Array = new Int32Array(16);
  starts: Int32Array = new Int32Array(16);
  ends: Int32Array = new Int32Array(16);
  n = 0;
  readonly sink = new ByteSink(4096);

  push(from: number, s: number, e: number): void {
    const n = this.n;
    if (n === this.starts.length) {
      this.from = grow(this.from);
      this.starts = grow(this.starts);
      this.ends = grow(this.ends);
    }
    this.from[n] = from;
    this.starts[n] = s;
    this.ends[n] = e;
    this.n = n + 1;
  }
}

function grow(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** Does lit[s, e) hold a byte that makes the cell need quotes (it holds no quote: see litQuote)? */
function litSpecial(lit: Buffer, s: number, e: number, delim: number): boolean {
  for (let i = s; i < e; i++) {
    const b = lit[i];
    if (b === delim || b === 0x0a || b === 0x0d) return true;
  }
  return false;
}

/**
 * `sameDelim`: the file's delimiter is the output's, so a field the parser found needs no quotes needs
 * none on output either.
 */
export function mapCombine(
  out: CellOut,
  r: RecordView,
  op: Op,
  scratch: CombineScratch,
  sameDelim: boolean,
): void {
  const c = op.chain as ChainPlan;
  if (c.litQuote) {
    combineGeneral(out, r, op, scratch.sink);
    return;
  }
  const lits = c.litBytes;
  const litViews = c.litViews;
  const cols = c.combineSrc;
  const delim = out.delim;
  const buf = r.buf;
  const view = r.view;
  const ends = r.ends;
  const base = r.base;
  scratch.n = 0;
  let next = -1;
  let quote = false;
  let total = 0;
  for (let k = 0; k < cols.length; k++) {
    const src = cols[k];
    if (src >= r.count) continue;
    const f = r.flagsOf(src);
    const kind = f & 3;
    if (kind === MALFORMED) {
      combineGeneral(out, r, op, scratch.sink);
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
    while (s < e && isWs(buf[s])) s++;
    while (e > s && isWs(buf[e - 1])) e--;
    if (s === e) continue;
    const sepIndex = next < 0 ? 0 : next;
    const sep = lits[sepIndex];
    // The cell is trimmed: the first separator's leading white space goes. (The rule that drops a
    // separator's leading space after a space never applies to a later one: the byte before it is the
    // last of a trimmed field.)
    let ss = 0;
    if (next < 0) while (ss < sep.length && isWs(sep[ss])) ss++;
    if (ss < sep.length) {
      if (!quote && litSpecial(sep, ss, sep.length, delim)) quote = true;
      scratch.push(sepIndex, ss, sep.length);
      total += sep.length - ss;
    }
    if (kind === ESCAPED) quote = true;
    else if (!quote && (!sameDelim || (f & NEEDS_QUOTE) !== 0)) {
      for (let i = s; i < e; i++) {
        const b = buf[i];
        if (b === delim || b === 0x0a || b === 0x0d) {
          quote = true;
          break;
        }
      }
    }
    scratch.push(RECORD, s, e);
    total += e - s;
    next = k + 1;
  }
  if (next < 0) return;
  const tailIndex = lits.length - 1;
  const tail = lits[tailIndex];
  let te = tail.length;
  while (te > 0 && isWs(tail[te - 1])) te--;
  if (te > 0) {
    if (!quote && litSpecial(tail, 0, te, delim)) quote = true;
    scratch.push(tailIndex, 0, te);
    total += te;
  }
  let guard = false;
  if (out.protect) {
    const first = scratch.from[0];
    const b0 = (first === RECORD ? buf : lits[first])[scratch.starts[0]];
    // = and @ always; + and - unless the whole cell is a number or phone number (the general path reads
    // it). Tab, CR and LF cannot start a trimmed cell.
    if (b0 === 0x2b || b0 === 0x2d) {
      combineGeneral(out, r, op, scratch.sink);
      return;
    }
    guard = b0 === 0x3d || b0 === 0x40;
  }
  const sink = out.sink;
  sink.ensure(total + 3);
  if (quote) sink.byte(QUOTE);
  if (guard) sink.byte(APOS);
  const from = scratch.from;
  const starts = scratch.starts;
  const pieceEnds = scratch.ends;
  for (let i = 0; i < scratch.n; i++) {
    const k = from[i];
    if (k === RECORD) sink.copyFrom(buf, view, starts[i], pieceEnds[i]);
    else sink.copyFrom(lits[k], litViews[k], starts[i], pieceEnds[i]);
  }
  if (quote) sink.byte(QUOTE);
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
