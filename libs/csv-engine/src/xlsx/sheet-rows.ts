// The row side of the worksheet reader (sheet-scanner.ts reads the tags): a cell's value, given as the
// bytes the XML holds or as decoded text, is written as a CSV field into the current row, and a finished
// row goes to the output, padded and in column order, in pieces of about OUT_CHUNK bytes. Shared strings
// are copied as their prepared fields, whole-day dates from a cache of their bytes, plain numbers as
// they stand, so a plain cell makes no JS string.
import { InvalidWorkbookError } from '../errors';
import { decodeEntities } from './fast-xml';
import { copyBytes, csvField, type SharedStrings } from './shared-strings';
import { DateBytes, isoToSerial, type DateFormat } from './date-formats';
import { formatNumber } from './values';
import { normalizeEol } from './xml-text';

/** What a sheet needs from its workbook. */
export interface SheetContext {
  sharedStrings: SharedStrings;
  /** Per cell style index: the date format its number format shows, or null. */
  styleDates: (DateFormat | null)[];
  date1904: boolean;
}

/** Receives a sheet's rows as CSV bytes (row N of the sheet on line N), in pieces it may keep. */
export interface CsvBytes {
  write(chunk: Buffer): void;
}

/** Excel's own limit: 16,384 columns. */
const MAX_COLUMNS = 16_384;
/** Output is handed on in pieces of about this size. */
export const OUT_CHUNK = 256 * 1024;
/**
 * The output buffer: a piece plus room for what one input chunk adds after the piece is full (~60 KB
 * of CSV per 256 KB of sheet XML; more grows it). Twice OUT_CHUNK handed on half-empty buffers: the
 * consumer's memory and V8's external-memory GCs counted the empty half.
 */
const OUT_BUFFER = OUT_CHUNK + OUT_CHUNK / 4;

const AMP = 0x26;
const DQUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const ONE = 0x31;
const NINE = 0x39;

// Cell types (the `t` attribute); anything unknown reads as a number, as Excel does.
export const T_NUMBER = 0;
const T_SHARED = 1;
const T_BOOL = 2;
const T_STR = 3; // formula string
export const T_INLINE = 4;
const T_ERROR = 5;
const T_DATE = 6; // ISO 8601 text

const TYPES = new Map([
  ['s', T_SHARED],
  ['b', T_BOOL],
  ['str', T_STR],
  ['inlineStr', T_INLINE],
  ['e', T_ERROR],
  ['d', T_DATE],
]);

/** A row of this many bytes is an expansion attack (cells repeating one huge shared string), not data. */
const MAX_ROW_BYTES = 64 * 1024 * 1024;

const EMPTY = Buffer.alloc(0);
const TRUE = Buffer.from('TRUE');
const FALSE = Buffer.from('FALSE');

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

/**
 * Is `byte` in b[s, e)? A loop: the ranges are attribute values and cell values, short, and
 * Buffer#indexOf has no end, so it searched on to the end of the chunk when the byte was not there (each
 * `t="b"` cell scanned ~32 KB: with 64 KB chunks ~1 s of bench:xlsx, more with larger chunks).
 */
export function hasByte(b: Buffer, byte: number, s: number, e: number): boolean {
  for (let k = s; k < e; k++) if (b[k] === byte) return true;
  return false;
}

/** `-?(0|[1-9]\d*)(\.\d*[1-9])?` in at most 16 bytes: a number Excel shows as it is stored. */
function isPlainNumber(b: Buffer, s: number, e: number): boolean {
  if (e - s > 16 || e <= s) return false;
  let i = s;
  if (b[i] === MINUS) i++;
  if (i >= e || !isDigit(b[i])) return false;
  if (b[i] === ZERO) i++;
  else while (i < e && isDigit(b[i])) i++;
  if (i === e) return true;
  if (b[i] !== DOT) return false;
  i++;
  const frac = i;
  while (i < e && isDigit(b[i])) i++;
  return i === e && e > frac && b[e - 1] !== ZERO;
}

/** A sheet's rows as CSV bytes: what the tag reader (SheetToCsv) writes cells and rows through. */
export abstract class SheetRows {
  rows = 0;
  // The current row: cell fields written one after another into `row`; per column the byte range and
  // the row serial that set it (so nothing is cleared between rows). `row` and `out` are plain buffers
  // with their own lengths rather than the writer's ByteSink: with ByteSinks (2026-11-27, bench:xlsx, same
  // session, alternated) the 1M-row read took 4.3–5.3 s against 4.2–4.7 s; the fields stay local.
  // While its cells come in column order (as writers write them) the row also holds the commas between
  // them, so it is the line itself and endRow copies it whole; a cell out of order (or repeated) ends
  // that, and endRow puts the fields together by column as before.
  protected row = Buffer.allocUnsafe(64 * 1024);
  protected rowLength = 0;
  private inOrder = true;
  private lastCol = -1;
  /** Where reserve() placed the next field (after the commas it needs). */
  private at = 0;
  /** The bytes of the fields written to this row (what MAX_ROW_BYTES counts). */
  private fieldBytes = 0;
  protected readonly starts = new Int32Array(MAX_COLUMNS);
  protected readonly ends = new Int32Array(MAX_COLUMNS);
  protected readonly setIn = new Int32Array(MAX_COLUMNS);
  protected serial = 0;
  protected rowWidth = 0;
  protected rowNum = 0;
  protected col = -1;
  protected style = 0;
  protected lineWritten = 0; // sheet row of the last line written
  protected width = 0;

  protected out: Buffer = EMPTY;
  protected outLength = 0;
  /** Date serials seen lately, as the bytes they show. */
  protected readonly dates: DateBytes;

  constructor(
    protected readonly part: string,
    protected readonly wb: SheetContext,
    protected readonly sink: CsvBytes | null,
  ) {
    if (sink) this.out = Buffer.allocUnsafe(OUT_BUFFER);
    this.dates = new DateBytes(wb.date1904);
  }

  protected flush(): void {
    if (!this.sink || this.outLength === 0) return;
    const piece = this.out.subarray(0, this.outLength);
    this.out = Buffer.allocUnsafe(Math.max(OUT_BUFFER, this.out.length));
    this.outLength = 0;
    this.sink.write(piece);
  }

  /** An attribute value as text (entities decoded). */
  protected text(b: Buffer, s: number, e: number): string {
    const v = b.toString('utf8', s, e);
    return hasByte(b, AMP, s, e) ? decodeEntities('worksheet', v) : v;
  }

  /** Digits as a number; anything else is read as text the way Number() reads it (NaN if it is not one). */
  protected unsigned(b: Buffer, s: number, e: number): number {
    let v = 0;
    for (let k = s; k < e; k++) {
      const c = b[k];
      if (!isDigit(c) || k - s > 15) return Number(this.text(b, s, e));
      v = v * 10 + (c - ZERO);
    }
    return s === e ? 0 : v;
  }

  protected typeOf(b: Buffer, s: number, e: number): number {
    if (e - s === 1) {
      const c = b[s];
      if (c === 0x73 /* s */) return T_SHARED;
      if (c === 0x62 /* b */) return T_BOOL;
    }
    return TYPES.get(this.text(b, s, e)) ?? T_NUMBER;
  }

  /** A cell value given as raw bytes (no entities): copied as it is wherever the type allows. */
  protected putBytes(type: number, style: number, b: Buffer, s: number, e: number): void {
    switch (type) {
      case T_SHARED: {
        const index = this.unsigned(b, s, e);
        const length = this.wb.sharedStrings.fieldLength(index);
        this.reserve(length);
        const written = this.wb.sharedStrings.copyField(index, this.row, this.at);
        if (written < 0)
          throw new InvalidWorkbookError('A worksheet cell points at a missing shared string.');
        if (written > 0) this.commit(written);
        return;
      }
      case T_NUMBER: {
        const format = this.wb.styleDates[style] ?? null;
        if (format && e - s <= 7) {
          // A whole-day serial (most dates): read the digits here, no text made.
          let serial = 0;
          let k = s;
          while (k < e && isDigit(b[k])) serial = serial * 10 + (b[k++] - ZERO);
          if (k === e) {
            this.putDate(serial, format);
            return;
          }
        }
        if (!format && isPlainNumber(b, s, e)) {
          if (e - s === 2 && b[s] === MINUS && b[s + 1] === ZERO) this.putRaw(Buffer.from('0'), 0, 1);
          else this.putRaw(b, s, e);
          return;
        }
        this.putValue(type, style, b.toString('latin1', s, e));
        return;
      }
      case T_BOOL:
        if (e - s === 1 && (b[s] === ONE || b[s] === ZERO)) {
          // '1' or '0' (what every writer writes): no text made.
          const out = b[s] === ONE ? TRUE : FALSE;
          this.putRaw(out, 0, out.length);
          return;
        }
        this.putValue(type, style, b.toString('latin1', s, e));
        return;
      case T_DATE:
        this.putValue(type, style, b.toString('latin1', s, e));
        return;
      default: {
        // Formula strings and errors: the text itself, quoted when it must be.
        let plain = true;
        for (let k = s; k < e; k++) {
          const c = b[k];
          if (c === DQUOTE || c === COMMA || c === LF || c === CR) {
            plain = false;
            break;
          }
        }
        if (plain) this.putRaw(b, s, e);
        else this.putText(normalizeEol(b.toString('utf8', s, e)));
      }
    }
  }

  /** A cell value as decoded text. */
  protected putValue(type: number, style: number, raw: string): void {
    switch (type) {
      case T_SHARED: {
        const buf = Buffer.from(raw.trim(), 'latin1');
        this.putBytes(T_SHARED, style, buf, 0, buf.length);
        return;
      }
      case T_BOOL: {
        const v = raw.trim();
        const out = v === '1' || v === 'true' ? TRUE : FALSE;
        this.putRaw(out, 0, out.length);
        return;
      }
      case T_DATE: {
        // ISO 8601 text: shown through a date format as the serial it stands for would be.
        const format = this.wb.styleDates[style] ?? null;
        const serial = format ? isoToSerial(raw, this.wb.date1904) : NaN;
        if (serial >= 0) this.putDate(serial, format as DateFormat);
        else this.putText(raw.replace(/T00:00:00(\.0+)?Z?$/, '')); // midnight shows as the date alone
        return;
      }
      case T_NUMBER: {
        const format = this.wb.styleDates[style] ?? null;
        if (format) {
          const n = Number(raw);
          if (Number.isFinite(n) && n >= 0) {
            this.putDate(n, format);
            return;
          }
        }
        this.putText(formatNumber(raw));
        return;
      }
      default:
        this.putText(raw);
    }
  }

  protected putDate(serial: number, format: DateFormat): void {
    const bytes = this.dates.of(serial, format);
    this.putRaw(bytes, 0, bytes.length);
  }

  /** Text as a CSV field (empty text sets nothing, as an empty cell). */
  protected putText(v: string): void {
    if (v === '') return;
    const field = csvField(v);
    const length = Buffer.byteLength(field, 'utf8');
    this.reserve(length);
    this.commit(this.row.write(field, this.at, 'utf8'));
  }

  /** Bytes that are already a CSV field. */
  protected putRaw(b: Buffer, s: number, e: number): void {
    if (e <= s) return;
    this.reserve(e - s);
    this.commit(copyBytes(b, s, e, this.row, this.at));
  }

  /** Starts a row (no cell in it yet). */
  protected newRow(): void {
    this.rowLength = 0;
    this.rowWidth = 0;
    this.col = -1;
    this.inOrder = true;
    this.lastCol = -1;
    this.fieldBytes = 0;
  }

  /** Makes room for a field of at most `length` bytes for column `col`; it goes at `at`. */
  protected reserve(length: number): void {
    let commas = 0;
    if (this.inOrder) {
      const col = this.col;
      if (col > this.lastCol) commas = this.lastCol < 0 ? col : col - this.lastCol;
      else this.inOrder = false;
    }
    this.at = this.rowLength + commas;
    if (this.at + length <= this.row.length) return;
    if (this.fieldBytes + length > MAX_ROW_BYTES) {
      throw new InvalidWorkbookError(
        `A worksheet row is larger than ${MAX_ROW_BYTES / 1024 / 1024} MB as CSV. Save the sheet as CSV from Excel and upload that.`,
      );
    }
    const grown = Buffer.allocUnsafe(Math.max(this.row.length * 2, this.at + length));
    this.row.copy(grown, 0, 0, this.rowLength);
    this.row = grown;
  }

  /** The bytes just written to the row are this cell's field. */
  protected commit(length: number): void {
    const col = this.col;
    const at = this.at;
    if (this.inOrder) {
      const row = this.row;
      for (let k = this.rowLength; k < at; k++) row[k] = COMMA;
      this.lastCol = col;
    }
    this.starts[col] = at;
    this.rowLength = at + length;
    this.fieldBytes += length;
    this.ends[col] = this.rowLength;
    this.setIn[col] = this.serial;
    if (col + 1 > this.rowWidth) this.rowWidth = col + 1;
  }

  protected endRow(): void {
    if (this.rowWidth === 0) return; // no value in any cell: an empty row
    this.rows++;
    if (this.rowWidth > this.width) this.width = this.rowWidth;
    if (!this.sink) {
      this.lineWritten = this.rowNum;
      return;
    }
    const gap = this.rowNum - this.lineWritten - 1;
    this.room(gap + this.width + this.rowLength + 1);
    const out = this.out;
    let at = this.outLength;
    if (gap > 0) {
      out.fill(LF, at, at + gap);
      at += gap;
    }
    if (this.inOrder) {
      // The row is the line already (see `row`): padded to the width.
      at += this.row.copy(out, at, 0, this.rowLength);
      for (let c = this.rowWidth; c < this.width; c++) out[at++] = COMMA;
    } else {
      for (let c = 0; c < this.width; c++) {
        if (c > 0) out[at++] = COMMA;
        if (this.setIn[c] === this.serial) at += copyBytes(this.row, this.starts[c], this.ends[c], out, at);
      }
    }
    out[at++] = LF;
    this.outLength = at;
    this.lineWritten = this.rowNum;
  }

  /** Makes room for `length` more output bytes. */
  protected room(length: number): void {
    if (this.outLength + length <= this.out.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.outLength + length));
    this.out.copy(grown, 0, 0, this.outLength);
    this.out = grown;
  }
}
