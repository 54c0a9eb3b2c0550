// Output side: RFC 4180 bytes into a reused buffer, quotes only where needed, and the formula-injection
// rule of ARCHITECTURE §4 (OWASP): a cell starting with = @ TAB CR LF, or with + / - when it is not a
// number or a phone number, gets a leading apostrophe. The same rule and cell on text, for the browser's
// review grid, are libs/rules formula-guard.ts (formulaGuardNeeded, csvCellText); libs/rules
// engine-conformance.spec.ts holds the two equal.
import { CR, LF, QUOTE } from './parser';

const APOS = 0x27;

export type LineEnding = '\r\n' | '\n';

export interface WriteOptions {
  delimiter?: ',' | ';' | '\t' | '|';
  lineEnding?: LineEnding;
  /** Default true. */
  formulaProtection?: boolean;
}

/** Output memory consumers gave back (recycleChunk), newest last; per thread. */
const spares: Buffer[] = [];
const MAX_SPARES = 4;
/** Smaller buffers are not worth keeping (and may be slices of Node's shared pool). */
const MIN_SPARE_BYTES = 64 * 1024;

/**
 * Gives the memory of an output chunk back once its consumer is done with it (written out, hashed) and
 * nothing will read it again: a later chunk is written into it instead of into fresh memory, which costs
 * the process a page fault per 4 KB as it is first written (measured on issue 31's reshape, 76 MB of
 * output). Opt-in, for consumers that know the chunk's fate: the engine never assumes it. Not for runs
 * with a run history (it may read a chunk after handing it over).
 */
export function recycleChunk(chunk: Uint8Array): void {
  const ab = chunk.buffer;
  if (chunk.byteOffset !== 0 || !(ab instanceof ArrayBuffer) || ab.byteLength < MIN_SPARE_BYTES) return;
  if (spares.length >= MAX_SPARES) spares.shift();
  spares.push(Buffer.from(ab));
}

/** A spare buffer of exactly `size` bytes, taken out of the spares, or null. */
function spareOf(size: number): Buffer | null {
  for (let k = spares.length - 1; k >= 0; k--) {
    if (spares[k].length === size) return spares.splice(k, 1)[0];
  }
  return null;
}

/** Growable byte buffer, drained in whole rows. */
export class ByteSink {
  buf: Buffer;
  /** DataView over exactly `buf`, for 4-byte moves. */
  view: DataView;
  pos = 0;
  constructor(size = 1 << 20) {
    this.buf = Buffer.allocUnsafe(size);
    this.view = viewOf(this.buf);
  }
  ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + extra));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
    this.view = viewOf(next);
  }
  /**
   * Copies src[s, e) (room must be ensured). `sv` is viewOf(src). Short fields move 4 bytes at a time
   * through DataViews (V8 inlines them; Buffer#copy costs a native call, a byte loop a branch per byte).
   */
  copyFrom(src: Buffer, sv: DataView, s: number, e: number): void {
    const len = e - s;
    const p = this.pos;
    if (len >= 4) {
      if (len > 256) src.copy(this.buf, p, s, e);
      else {
        const dv = this.view;
        const last = len - 4;
        for (let k = 0; k < last; k += 4) dv.setInt32(p + k, sv.getInt32(s + k, true), true);
        dv.setInt32(p + last, sv.getInt32(s + last, true), true);
      }
    } else {
      const buf = this.buf;
      for (let k = 0; k < len; k++) buf[p + k] = src[s + k];
    }
    this.pos = p + len;
  }
  /**
   * Hands over what was written and starts over in a buffer of the same size (no copy: the bytes would be
   * copied into fresh memory anyway): one a consumer gave back (recycleChunk), else a fresh one.
   */
  take(exact = false): Buffer {
    if (exact || this.pos <= this.buf.length >> 1) {
      // Mostly empty (a short final chunk, a parallel block): hand over an exact copy and keep the buffer,
      // rather than pin a mostly unused one in the consumer's hands.
      const small = Buffer.allocUnsafeSlow(this.pos);
      this.buf.copy(small, 0, 0, this.pos);
      this.pos = 0;
      return small;
    }
    const out = this.buf.subarray(0, this.pos);
    this.buf = spareOf(this.buf.length) ?? Buffer.allocUnsafe(this.buf.length);
    this.view = viewOf(this.buf);
    this.pos = 0;
    return out;
  }
  byte(b: number): void {
    this.buf[this.pos++] = b;
  }
  bytes(src: Buffer, s: number, e: number): void {
    const len = e - s;
    const buf = this.buf;
    let p = this.pos;
    if (len < 64) {
      for (let i = s; i < e; i++) buf[p++] = src[i];
    } else {
      src.copy(buf, p, s, e);
      p += len;
    }
    this.pos = p;
  }
}

export function viewOf(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/** Is the cell (bytes) a plain number or a phone number, so a leading + or - is harmless? */
export function isNumberOrPhone(src: Buffer, s: number, e: number): boolean {
  let digits = 0;
  for (let i = s + 1; i < e; i++) {
    const b = src[i];
    if (b >= 0x30 && b <= 0x39) digits++;
    // Only characters that cannot form a function call: digits and number/phone punctuation.
    else if (b !== 0x2e && b !== 0x2c && b !== 0x20 && b !== 0x28 && b !== 0x29 && b !== 0x2d && b !== 0x2f)
      return false;
  }
  return digits > 0;
}

/** Does this cell need the formula-injection apostrophe? */
export function needsFormulaGuard(src: Buffer, s: number, e: number): boolean {
  if (s >= e) return false;
  const b = src[s];
  if (b === 0x3d || b === 0x40 || b === 0x09 || b === CR || b === LF) return true;
  if (b === 0x2b || b === 0x2d) return !isNumberOrPhone(src, s, e);
  return false;
}

/** Writes one cell given as content bytes, quoting and escaping only where needed. */
export function writeCell(
  sink: ByteSink,
  src: Buffer,
  s: number,
  e: number,
  delim: number,
  protect: boolean,
): void {
  const guard = protect && needsFormulaGuard(src, s, e);
  let quote = false;
  let quotes = 0;
  for (let i = s; i < e; i++) {
    const b = src[i];
    if (b === QUOTE) {
      quote = true;
      quotes++;
    } else if (b === delim || b === LF || b === CR) quote = true;
  }
  sink.ensure(e - s + quotes + 3);
  if (!quote) {
    if (guard) sink.byte(APOS);
    sink.bytes(src, s, e);
    return;
  }
  const buf = sink.buf;
  let p = sink.pos;
  buf[p++] = QUOTE;
  if (guard) buf[p++] = APOS;
  if (quotes === 0) {
    src.copy(buf, p, s, e);
    p += e - s;
  } else {
    for (let i = s; i < e; i++) {
      const b = src[i];
      buf[p++] = b;
      if (b === QUOTE) buf[p++] = QUOTE;
    }
  }
  buf[p++] = QUOTE;
  sink.pos = p;
}

export function writeStringCell(sink: ByteSink, value: string, delim: number, protect: boolean): void {
  const b = Buffer.from(value, 'utf8');
  writeCell(sink, b, 0, b.length, delim, protect);
}

/**
 * writeStringCell without the intermediate Buffer when the text needs no quotes and no formula guard
 * (the common case): encoded straight into the sink.
 */
export function writeTextCell(sink: ByteSink, value: string, delim: number, protect: boolean): void {
  const n = value.length;
  if (n === 0) return;
  const c0 = value.charCodeAt(0);
  if (
    protect &&
    (c0 === 0x3d || c0 === 0x40 || c0 === 0x09 || c0 === 0x2b || c0 === 0x2d || c0 === CR || c0 === LF)
  ) {
    writeStringCell(sink, value, delim, protect);
    return;
  }
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c === QUOTE || c === delim || c === LF || c === CR) {
      writeStringCell(sink, value, delim, protect);
      return;
    }
  }
  sink.ensure(n * 3);
  sink.pos += sink.buf.write(value, sink.pos, 'utf8');
}

export function writeLineEnding(sink: ByteSink, crlf: boolean): void {
  sink.ensure(2);
  if (crlf) sink.byte(CR);
  sink.byte(LF);
}

/**
 * Writes a whole table as CSV text (small data: tests, the preview, the api's sync responses).
 * A row holding a single empty cell is written as `""` so it does not read back as a blank line.
 */
export function writeCsv(rows: readonly (readonly string[])[], options: WriteOptions = {}): string {
  const delim = (options.delimiter ?? ',').charCodeAt(0);
  const crlf = (options.lineEnding ?? '\r\n') === '\r\n';
  const protect = options.formulaProtection ?? true;
  const sink = new ByteSink(1024);
  for (const row of rows) {
    if (row.length === 1 && row[0] === '') {
      sink.ensure(2);
      sink.byte(QUOTE);
      sink.byte(QUOTE);
    } else {
      for (let k = 0; k < row.length; k++) {
        if (k > 0) {
          sink.ensure(1);
          sink.byte(delim);
        }
        writeStringCell(sink, row[k], delim, protect);
      }
    }
    writeLineEnding(sink, crlf);
  }
  return sink.buf.toString('utf8', 0, sink.pos);
}
