// The CSV parser. It never creates a string or an array per field: each record is reported as offsets into
// the current buffer (typed arrays), and consumers copy or decode only the fields they need. Where the
// SIMD pre-pass (simd-scan.ts) has listed where a buffer's fields end, records are read from that list;
// otherwise, and for the rare records the list cannot settle, a byte-level state machine reads them.
// Handles RFC 4180 plus the usual variants: CRLF/LF/CR line ends, no final newline, blank lines skipped,
// quotes with "" escapes, delimiters and newlines inside quotes.
import { FieldTooLargeError, RowTooLargeError, TooManyColumnsError, UnterminatedQuoteError } from './errors';
import {
  LINE_END,
  MARK_ESCAPED,
  MARK_LINES,
  MARK_NEEDS_QUOTE,
  MAX_SCAN_BYTES,
  simdScanner,
} from './simd-scan';

// Constants are declared locally and exported in a list: TypeScript compiles every use of an
// `export const` as an `exports.X` property load, which V8 optimises only after seeing it run, so a path
// first taken late (a stray quote) would throw the optimised parser away. Local consts need no feedback.
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** Field flags. */
const F_PLAIN = 0; // unquoted, content = [start, end)
const F_QUOTED = 1; // quoted, content = [start+1, end-1), no "" inside
const F_ESCAPED = 2; // quoted with "" escapes: raw [start, end) is already valid RFC 4180 output
const F_MALFORMED = 3; // stray quote or text after a closing quote: decode with unescape()
const F_NEEDS_QUOTE = 4; // bit: quoted content holds the delimiter, CR or LF

export { QUOTE, LF, CR, F_PLAIN, F_QUOTED, F_ESCAPED, F_MALFORMED, F_NEEDS_QUOTE };

const C_DELIM = 1;
const C_QUOTE = 2;
const C_LF = 3;
const C_CR = 4;

export const DEFAULT_MAX_FIELD_BYTES = 1024 * 1024;
export const DEFAULT_MAX_ROW_BYTES = 8 * 1024 * 1024;
export const DEFAULT_MAX_COLUMNS = 10_000;

/** Larger chunks are parsed in pieces of this size (each piece's field ends are found with SIMD). */
const PIECE_BYTES = 1024 * 1024;
/** recordIndexed(): this record needs record(). */
const BYTEWISE = -2;

export interface ParserLimits {
  maxFieldBytes?: number;
  maxRowBytes?: number;
  maxColumns?: number;
}

/**
 * What a record consumer sees. Valid only during the onRecord call. Field k (0 ≤ k < count) is the raw bytes
 * buf[ends[base + k - 1] + 1, ends[base + k]) — quotes included — and its flags are flagsOf(k).
 */
export interface RecordView {
  buf: Buffer;
  /** DataView over exactly `buf` (for 4-byte moves). */
  view: DataView;
  ends: Int32Array;
  base: number;
  count: number;
  /** F_PLAIN, F_QUOTED, F_ESCAPED or F_MALFORMED, with F_NEEDS_QUOTE. */
  flagsOf(k: number): number;
  /** 1-based line on which the record starts. */
  line: number;
}

/** Return false to stop parsing (the rest of the input is ignored). */
export type RecordHandler = (r: RecordView) => boolean | void;

export class RecordParser implements RecordView {
  buf: Buffer = Buffer.alloc(0) as Buffer;
  view: DataView = new DataView(new ArrayBuffer(0));
  /** The field ends of the current record: the SIMD pre-pass's list, or fieldEnds (base 1). */
  ends: Int32Array;
  base = 1;
  count = 0;
  /** The SIMD pre-pass's marks while `ends` is its list (flags are read when asked for), else null. */
  private marks: Int32Array | null = null;
  /** record()'s own field ends (from index 1; index 0 is the byte before the record) and flags. */
  private fieldEnds: Int32Array = new Int32Array(65);
  private flags = new Uint8Array(64);
  line = 1;
  /** Line breaks inside quoted fields of the last record read. */
  rowLines = 0;
  /** Line the next record will start on (after all complete records so far). */
  nextLine = 1;
  stopped = false;
  bytesConsumed = 0;

  private readonly cls = new Uint8Array(256);
  private readonly delim: number;
  private readonly hi: number;
  private readonly maxField: number;
  private readonly maxRow: number;
  private readonly maxColumns: number;
  private pending: Buffer[] = [];
  private pendingLen = 0;
  private pendingNeed = 0;
  /** Index into the SIMD pre-pass's field ends: the first that may end a field of the next record. */
  private next = 1;

  /**
   * `simd: false` reads every byte in JavaScript, as where WebAssembly SIMD is missing (tests compare the
   * two).
   */
  constructor(
    delimiter: number,
    private onRecord: RecordHandler,
    limits: ParserLimits = {},
    private readonly simd = true,
  ) {
    this.delim = delimiter;
    this.hi = Math.max(delimiter, QUOTE, LF, CR);
    this.cls[delimiter] = C_DELIM;
    this.cls[QUOTE] = C_QUOTE;
    this.cls[LF] = C_LF;
    this.cls[CR] = C_CR;
    this.maxField = limits.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES;
    this.maxRow = Math.max(limits.maxRowBytes ?? DEFAULT_MAX_ROW_BYTES, this.maxField + 2);
    this.maxColumns = limits.maxColumns ?? DEFAULT_MAX_COLUMNS;
    this.ends = this.fieldEnds;
  }

  flagsOf(k: number): number {
    const marks = this.marks;
    if (marks === null) return this.flags[k];
    const ends = this.ends;
    if (this.buf[ends[this.base + k - 1] + 1] !== QUOTE) return F_PLAIN;
    // What the field holds is marked at its end.
    const e = ends[this.base + k];
    const w = (e >>> 5) * 3;
    const bit = 1 << (e & 31);
    return (
      ((marks[w + MARK_ESCAPED] & bit) === 0 ? F_QUOTED : F_ESCAPED) |
      ((marks[w + MARK_NEEDS_QUOTE] & bit) === 0 ? 0 : F_NEEDS_QUOTE)
    );
  }

  /** Replaces the record handler (from the next record on). */
  setHandler(onRecord: RecordHandler): void {
    this.onRecord = onRecord;
  }

  push(chunk: Buffer): void {
    if (chunk.length <= PIECE_BYTES) return this.pushPiece(chunk);
    for (let at = 0; at < chunk.length && !this.stopped; at += PIECE_BYTES)
      this.pushPiece(chunk.subarray(at, at + PIECE_BYTES));
  }

  private pushPiece(chunk: Buffer): void {
    if (this.stopped || chunk.length === 0) return;
    let data = chunk;
    if (this.pendingLen > 0) {
      if (this.pendingNeed === 0 && this.pending.length === 1) {
        // Usual case: a short record tail from the previous chunk. Complete it with the bytes up to the next
        // line break instead of copying the whole new chunk behind it.
        const lf = chunk.indexOf(LF);
        if (lf >= 0 && lf + 1 < chunk.length) {
          const small = Buffer.concat([this.pending[0], chunk.subarray(0, lf + 1)]);
          const usedSmall = this.scan(small, false);
          if (this.stopped) return;
          if (usedSmall === small.length) {
            this.pending = [];
            this.pendingLen = 0;
            data = chunk.subarray(lf + 1);
          } else {
            // the record goes on (a quoted line break): fall back to joining everything
            this.pending = [small.subarray(usedSmall)];
            this.pendingLen = small.length - usedSmall;
            data = Buffer.concat([this.pending[0], chunk.subarray(lf + 1)]);
            this.pending = [];
            this.pendingLen = 0;
          }
          return this.scanRest(data);
        }
      }
      this.pending.push(chunk);
      this.pendingLen += chunk.length;
      // A record longer than a chunk is rescanned only when its data has doubled: linear, not quadratic.
      if (this.pendingLen < this.pendingNeed) return;
      data = Buffer.concat(this.pending, this.pendingLen);
      this.pending = [];
      this.pendingLen = 0;
    }
    this.scanRest(data);
  }

  private scanRest(data: Buffer): void {
    const used = this.scan(data, false);
    if (used < data.length && !this.stopped) {
      const rest = Buffer.from(data.subarray(used));
      this.pending = [rest];
      this.pendingLen = rest.length;
      this.pendingNeed = rest.length >= 65536 ? rest.length * 2 : 0;
    }
  }

  /** True when every byte pushed so far ended a record: the next byte starts a new one. */
  get atRecordStart(): boolean {
    return this.pendingLen === 0;
  }

  /**
   * Accounts for records another parser read from the bytes that follow (parallel mapping): they held
   * `lines` line breaks and `bytes` bytes.
   */
  skip(lines: number, bytes: number): void {
    this.nextLine += lines;
    this.bytesConsumed += bytes;
  }

  /** Line breaks inside the bytes held back for an incomplete record (for error line numbers). */
  pendingLines(): number {
    let lines = 0;
    for (const b of this.pending) {
      for (let i = b.indexOf(LF); i !== -1; i = b.indexOf(LF, i + 1)) lines++;
    }
    return lines;
  }

  end(): void {
    if (this.stopped) return;
    if (this.pendingLen > 0) {
      const data = Buffer.concat(this.pending, this.pendingLen);
      this.pending = [];
      this.pendingLen = 0;
      this.scan(data, true);
    }
  }

  /**
   * Parses complete records of `buf`; returns the offset of the first byte not consumed. Uses the SIMD
   * pre-pass's list of field ends when it can have one for `buf`.
   */
  private scan(buf: Buffer, final: boolean): number {
    const scanner = this.simd && buf.length <= MAX_SCAN_BYTES ? simdScanner() : null;
    if (scanner === null || scanner.busy) return this.scanWith(buf, final, null, null);
    const found = scanner.scan(buf, buf.length, this.delim);
    if (found === null) return this.scanWith(buf, final, null, null);
    scanner.busy = true;
    try {
      this.next = 1;
      return this.scanWith(buf, final, found.ends, found.marks);
    } finally {
      scanner.busy = false;
    }
  }

  /**
   * scan() with the SIMD pre-pass's result for `buf` (simd-scan.ts), or without (null): every byte read.
   *
   * A small driver: the field work is in recordIndexed() and record(), functions called once per record.
   * V8 optimises those as plain hot functions, so when this loop's own optimised code is thrown away (its
   * end-of-buffer paths run for the first time only at the end of the first big chunk), the records keep
   * running in optimised code instead of falling back to the interpreter for a whole chunk.
   */
  private scanWith(buf: Buffer, final: boolean, ends: Int32Array | null, marks: Int32Array | null): number {
    this.buf = buf;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.length);
    const n = buf.length;
    let line = this.nextLine;
    let pos = 0;
    let incomplete = false;
    while (pos < n) {
      const c = buf[pos];
      if (c === LF) {
        pos++;
        line++;
        continue;
      }
      if (c === CR) {
        if (pos + 1 < n) {
          pos += buf[pos + 1] === LF ? 2 : 1;
          line++;
          continue;
        }
        if (!final) break;
        pos++;
        line++;
        continue;
      }
      let end = ends === null ? BYTEWISE : this.recordIndexed(buf, pos, n, ends, marks as Int32Array);
      if (end === BYTEWISE) end = this.record(buf, pos, n, final, line);
      if (end < 0) {
        incomplete = true;
        break;
      }
      this.line = line;
      line += 1 + this.rowLines;
      this.nextLine = line;
      pos = end;
      if (this.onRecord(this) === false) {
        this.stopped = true;
        this.bytesConsumed += pos;
        return n;
      }
    }
    if (incomplete && n - pos > this.maxRow) throw new RowTooLargeError(line, this.maxRow);
    this.nextLine = line;
    this.bytesConsumed += pos;
    return pos;
  }

  /**
   * Reads the record starting at `pos` (not a blank line) into fieldEnds/flags/count and rowLines.
   * Returns the offset after its line break, or -1 when the record is not complete in `buf`.
   */
  private record(buf: Buffer, pos: number, n: number, final: boolean, line: number): number {
    const cls = this.cls;
    // Bytes above `hi` are never special: the common case costs one compare, no table load.
    const hi = this.hi;
    const delim = this.delim;
    const maxField = this.maxField;
    let ends = this.fieldEnds;
    let flags = this.flags;
    let cap = flags.length;
    let i = pos;
    let count = 0;
    let rowLines = 0;
    this.marks = null;
    ends[0] = pos - 1;
    for (;;) {
      if (count === cap) {
        cap = this.grow(line);
        ends = this.fieldEnds;
        flags = this.flags;
      }
      const fs = i;
      let fl = F_PLAIN;
      let closed = true;
      let quoteLine = 0;
      if (i < n && buf[i] === QUOTE) {
        quoteLine = line + rowLines;
        fl = F_QUOTED;
        closed = false;
        i++;
        while (i < n) {
          const b = buf[i];
          if (b > hi) {
            i++;
            continue;
          }
          const k = cls[b];
          if (k === 0) {
            i++;
            continue;
          }
          if (k === C_QUOTE) {
            if (i + 1 < n) {
              if (buf[i + 1] === QUOTE) {
                fl = (fl & F_NEEDS_QUOTE) | F_ESCAPED;
                i += 2;
                continue;
              }
              i++;
              closed = true;
              break;
            }
            if (final) {
              i++;
              closed = true;
            }
            break;
          }
          fl |= F_NEEDS_QUOTE;
          if (k === C_LF) rowLines++;
          else if (k === C_CR) {
            if (i + 1 >= n && !final) break;
            if (i + 1 >= n || buf[i + 1] !== LF) rowLines++;
          }
          i++;
        }
        if (closed && i < n) {
          const b = buf[i];
          if (b > hi || cls[b] === 0 || b === QUOTE) {
            // Text after the closing quote ("ab"c): keep it, as spreadsheet apps do.
            fl = F_MALFORMED;
            while (i < n) {
              const b2 = buf[i];
              if (b2 > hi) i++;
              else {
                const k2 = cls[b2];
                if (k2 === 0 || k2 === C_QUOTE) i++;
                else break;
              }
            }
          }
        }
      } else {
        while (i < n) {
          const b = buf[i];
          if (b > hi) {
            i++;
            continue;
          }
          const k = cls[b];
          if (k !== 0) {
            if (k !== C_QUOTE) break;
            fl = F_MALFORMED; // a stray quote in unquoted text
          }
          i++;
        }
      }
      // Checked for every field, so this (hot) code never meets an unseen operation at a buffer's end.
      if (i - fs > maxField) throw fieldError(closed, final, rowLines, quoteLine, line, maxField);
      if (!closed) {
        if (final) throw new UnterminatedQuoteError(quoteLine);
        return -1;
      }
      ends[count + 1] = i;
      flags[count] = fl;
      count++;
      if (i >= n) {
        if (!final) return -1;
        break;
      }
      const c = buf[i];
      if (c === delim) {
        i++;
        if (i >= n && !final) return -1;
        continue;
      }
      // LF, CR or CRLF (one increment for all three, so no line end is new to the optimised code)
      let step = 1;
      if (c === CR) {
        if (i + 1 >= n) {
          if (!final) return -1;
        } else if (buf[i + 1] === LF) step = 2;
      }
      i += step;
      break;
    }
    this.ends = ends;
    this.base = 1;
    this.count = count;
    this.rowLines = rowLines;
    return i;
  }

  /**
   * record() for a buffer whose field ends the SIMD pre-pass has listed (`ends`, from `this.next` on): the
   * record's fields end at the next offsets, up to the first line break; no byte of it is read here, and a
   * field's flags are worked out only when a consumer asks (flagsOf). Returns BYTEWISE for a record that
   * reaches the end of the buffer, or may hold a field too large or too many fields: record() then reads it
   * byte by byte, so the rare cases keep one implementation.
   */
  private recordIndexed(buf: Buffer, pos: number, n: number, ends: Int32Array, marks: Int32Array): number {
    let k = this.next;
    // Past the separators before this record (blank lines, the LF of a CRLF, a record read by record()).
    while ((ends[k] & ~LINE_END) < pos) k++;
    const base = k;
    let e = ends[k];
    while (e >= 0) e = ends[++k];
    e &= ~LINE_END;
    const count = k - base + 1;
    if (e >= n || e - pos > this.maxField || count > this.maxColumns) return BYTEWISE;
    let next = e + 1;
    if (buf[e] === CR) {
      if (next >= n) return BYTEWISE;
      if (buf[next] === LF) next++;
    }
    ends[k] = e;
    // The field ends before this record's are spent: the one before its first field marks where it starts.
    ends[base - 1] = pos - 1;
    this.next = k + 1;
    this.ends = ends;
    this.base = base;
    this.marks = marks;
    this.count = count;
    this.rowLines = lineBreaksWithin(buf, marks, pos, e);
    return next;
  }

  /** Doubles the field arrays; returns the new capacity. */
  private grow(line: number): number {
    const cap = this.flags.length;
    if (cap >= this.maxColumns) throw new TooManyColumnsError(line, this.maxColumns);
    this.fieldEnds = grow32(this.fieldEnds, cap * 2 + 1);
    const f = new Uint8Array(cap * 2);
    f.set(this.flags);
    this.flags = f;
    return cap * 2;
  }
}

/**
 * Line breaks inside the quoted fields of the record buf[a, b) (a CRLF counts once). Usually none, which the
 * SIMD pre-pass marks at the record's end (b): then no byte is read.
 */
function lineBreaksWithin(buf: Buffer, marks: Int32Array, a: number, b: number): number {
  if ((marks[(b >>> 5) * 3 + MARK_LINES] & (1 << (b & 31))) === 0) return 0;
  let lines = 0;
  for (let i = a; i < b; i++) {
    const c = buf[i];
    if (c === LF || (c === CR && buf[i + 1] !== LF)) lines++;
  }
  return lines;
}

function fieldError(
  closed: boolean,
  final: boolean,
  rowLines: number,
  quoteLine: number,
  line: number,
  max: number,
): Error {
  if (!closed) {
    // A quoted field that swallowed line breaks up to the limit is almost always a quote never closed.
    if (final || rowLines > 0) return new UnterminatedQuoteError(quoteLine);
    return new FieldTooLargeError(quoteLine, max);
  }
  return new FieldTooLargeError(line + rowLines, max);
}

function grow32(a: Int32Array, cap: number): Int32Array {
  const b = new Int32Array(cap);
  b.set(a);
  return b;
}

/** Content bytes of field k as a string (unescaping quotes). */
export function fieldString(r: RecordView, k: number): string {
  if (k >= r.count) return '';
  const s = r.ends[r.base + k - 1] + 1;
  const e = r.ends[r.base + k];
  const f = r.flagsOf(k) & 3;
  if (f === F_PLAIN) return r.buf.toString('utf8', s, e);
  if (f === F_QUOTED) return r.buf.toString('utf8', s + 1, e - 1);
  return unescapeField(r.buf, s, e).toString('utf8');
}

/** Decodes a quoted or malformed raw field: quotes toggle, "" inside quotes is one quote. */
export function unescapeField(buf: Buffer, s: number, e: number): Buffer {
  const out = Buffer.allocUnsafe(e - s);
  let o = 0;
  let inQuote = false;
  for (let i = s; i < e; i++) {
    const b = buf[i];
    if (b === QUOTE) {
      if (inQuote && i + 1 < e && buf[i + 1] === QUOTE) {
        out[o++] = QUOTE;
        i++;
      } else if (inQuote) inQuote = false;
      else if (i === s) inQuote = true;
      else out[o++] = QUOTE; // a stray quote in unquoted text stays literal
    } else out[o++] = b;
  }
  return out.subarray(0, o);
}

/** True when every field from `from` on is empty: a row ending with a delimiter (or several) more. */
export function emptyFrom(r: RecordView, from: number): boolean {
  for (let k = from; k < r.count; k++) {
    const len = r.ends[r.base + k] - r.ends[r.base + k - 1] - 1;
    if (len > 0 && !(len === 2 && (r.flagsOf(k) & 3) === F_QUOTED)) return false;
  }
  return true;
}

/** All fields of a record as strings. */
export function recordStrings(r: RecordView): string[] {
  const out = new Array<string>(r.count);
  for (let k = 0; k < r.count; k++) out[k] = fieldString(r, k);
  return out;
}
