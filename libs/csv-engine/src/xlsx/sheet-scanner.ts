// A worksheet turned into CSV bytes as its XML streams in: the reader's hot loop. It works on the inflated
// bytes themselves — finds tags with Buffer.indexOf, reads the three attributes a cell needs (r, t, s)
// as bytes, and copies a cell's value (a number, a shared string's prepared field) straight into the row
// — so a plain cell makes no JS string at all. Only what needs it is decoded: entities, CDATA, inline
// rich text, date serials and numbers that are not already in plain form. Text is read as Excel shows it:
// XML line ends normalised, inline strings' `_xHHHH_` escapes decoded. The guards of every part hold:
// a DTD is refused, entities other than the predefined ones are refused, nothing is expanded.
import { InvalidWorkbookError } from '../errors';
import { decodeEntities } from './fast-xml';
import { copyBytes, csvField, type SharedStrings } from './shared-strings';
import { DateBytes, isoToSerial, type DateFormat } from './date-formats';
import { formatNumber } from './values';
import { refused } from './xml';
import { inlineText, textOf } from './cell-text';
import { normalizeEol } from './xml-text';
import type { EntrySink } from './zip';

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

/** A cell or tag longer than this is not something a workbook writes (Excel caps a cell at 32,767 chars). */
const MAX_PENDING = 16 * 1024 * 1024;
/** Excel's own limits: 16,384 columns, 1,048,576 rows. */
const MAX_COLUMNS = 16_384;
const MAX_ROWS = 1_048_576;
/** Output is handed on in pieces of about this size. */
const OUT_CHUNK = 256 * 1024;

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QMARK = 0x3f;
const EQ = 0x3d;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const COLON = 0x3a;
const AMP = 0x26;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

// Cell types (the `t` attribute); anything unknown reads as a number, as Excel does.
const T_NUMBER = 0;
const T_SHARED = 1;
const T_BOOL = 2;
const T_STR = 3; // formula string
const T_INLINE = 4;
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
/** plainCell's answer when the input stops inside the cell. */
const NEED_MORE = -2;
const PLAIN_CELL_END = Buffer.from('</v></c>');
const TRUE = Buffer.from('TRUE');
const FALSE = Buffer.from('FALSE');

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

/** The index of a tag's '>' (the first outside quotes) from `k`, or -1 when the input ends first. */
function tagEnd(b: Buffer, k: number, n: number): number {
  let quote = 0;
  for (; k < n; k++) {
    const ch = b[k];
    if (quote) {
      if (ch === quote) quote = 0;
    } else if (ch === DQUOTE || ch === SQUOTE) quote = ch;
    else if (ch === GT) return k;
  }
  return -1;
}

function hasByte(b: Buffer, byte: number, s: number, e: number): boolean {
  const at = b.indexOf(byte, s);
  return at >= 0 && at < e;
}

/** The column of a reference such as "AB12" (0-based); -1 when it has no letters. */
function columnOfText(ref: string): number {
  let col = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20;
    if (c < 0x61 || c > 0x7a) break;
    col = col * 26 + (c - 0x60);
    if (col > MAX_COLUMNS) return MAX_COLUMNS;
  }
  return col - 1;
}

function broken(part: string): InvalidWorkbookError {
  return new InvalidWorkbookError(
    `The workbook part "${part}" is not well-formed XML. Open the file in Excel, save it again as .xlsx (or CSV) and upload that.`,
  );
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

/** Tag bytes for a prefix ('' or 'x:'), made once per prefix a file uses. */
interface PrefixTags {
  cClose: Buffer; // </c>
  vOpen: Buffer; // <v>
  vOpenAttrs: Buffer; // <v␠
  vClose: Buffer; // </v>
}

/**
 * A sink that turns a worksheet's XML into CSV bytes. Empty rows between rows become blank lines; empty
 * trailing rows are dropped; each row is padded to the widest non-empty row so far (trailing empty
 * columns never appear). `rows` counts non-empty rows. With no output it only counts.
 */
export class SheetToCsv implements EntrySink {
  rows = 0;
  private pending: Buffer = EMPTY;
  private readonly prefixes = new Map<string, PrefixTags>();

  // The current row: cell fields written one after another into `row`; per column the byte range and
  // the row serial that set it (so nothing is cleared between rows). `row` and `out` are plain buffers
  // with their own lengths rather than the writer's ByteSink: with ByteSinks (2026-11-27, bench:xlsx, same
  // session, alternated) the 1M-row read took 4.3–5.3 s against 4.2–4.7 s; the fields stay local.
  private row = Buffer.allocUnsafe(64 * 1024);
  private rowLength = 0;
  private readonly starts = new Int32Array(MAX_COLUMNS);
  private readonly ends = new Int32Array(MAX_COLUMNS);
  private readonly setIn = new Int32Array(MAX_COLUMNS);
  private serial = 0;
  private rowWidth = 0;
  private rowNum = 0;
  private col = -1;
  private style = 0;
  private lineWritten = 0; // sheet row of the last line written
  private width = 0;

  private out: Buffer = EMPTY;
  private outLength = 0;
  /** Date serials seen lately, as the bytes they show. */
  private readonly dates: DateBytes;

  constructor(
    private readonly part: string,
    private readonly wb: SheetContext,
    private readonly sink: CsvBytes | null,
  ) {
    if (sink) this.out = Buffer.allocUnsafe(OUT_CHUNK * 2);
    this.dates = new DateBytes(wb.date1904);
  }

  data(chunk: Uint8Array): void {
    const b =
      this.pending.length === 0
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : Buffer.concat([this.pending, chunk]);
    const used = this.scan(b, false);
    // Copied: the caller may reuse its chunk, and a small tail should not pin a large one.
    this.pending = used >= b.length ? EMPTY : Buffer.from(b.subarray(used));
    if (this.pending.length > MAX_PENDING) throw refused(this.part, 'has a cell or tag larger than 16 MB');
    if (this.outLength >= OUT_CHUNK) this.flush();
  }

  end(): void {
    const b = this.pending;
    const used = this.scan(b, true);
    this.pending = EMPTY;
    for (let i = used; i < b.length; i++) if (!isSpace(b[i])) throw broken(this.part);
    this.flush();
  }

  private flush(): void {
    if (!this.sink || this.outLength === 0) return;
    const piece = this.out.subarray(0, this.outLength);
    this.out = Buffer.allocUnsafe(Math.max(OUT_CHUNK * 2, this.out.length));
    this.outLength = 0;
    this.sink.write(piece);
  }

  private tagsFor(prefix: string): PrefixTags {
    let t = this.prefixes.get(prefix);
    if (!t) {
      t = {
        cClose: Buffer.from(`</${prefix}c>`),
        vOpen: Buffer.from(`<${prefix}v>`),
        vOpenAttrs: Buffer.from(`<${prefix}v `),
        vClose: Buffer.from(`</${prefix}v>`),
      };
      this.prefixes.set(prefix, t);
    }
    return t;
  }

  /** Reads tags from `b`; returns how many bytes were used (the rest waits for more input). */
  private scan(b: Buffer, final: boolean): number {
    const n = b.length;
    let i = 0;
    for (;;) {
      // Text between rows and cells is layout whitespace: a short hop (a loop beats a call into indexOf).
      while (i < n && b[i] !== LT) i++;
      if (i >= n) return n;
      const lt = i;
      let p = lt + 1;
      if (p >= n) return i;
      const closing = b[p] === SLASH;
      if (closing) p++;
      if (p >= n) return i;
      const c0 = b[p];
      if (c0 === BANG) {
        if (n - lt >= 4 && b[lt + 2] === MINUS && b[lt + 3] === MINUS) {
          const end = b.indexOf('-->', lt + 4);
          if (end < 0) return i;
          i = end + 3;
          continue;
        }
        if (n - lt >= 9 && b.toString('latin1', lt, lt + 9) === '<![CDATA[') {
          const end = b.indexOf(']]>', lt + 9);
          if (end < 0) return i;
          i = end + 3;
          continue;
        }
        if (n - lt < 9 && !final) return i;
        throw refused(this.part, 'declares a DTD');
      }
      if (c0 === QMARK) {
        const end = b.indexOf('?>', lt + 2);
        if (end < 0) return i;
        i = end + 2;
        continue;
      }
      // The name, and where its local part starts (after a prefix such as `x:`).
      let q = p;
      let local = p;
      for (; q < n; q++) {
        const ch = b[q];
        if (isSpace(ch) || ch === GT || ch === SLASH) break;
        if (ch === COLON) local = q + 1;
      }
      if (q >= n) return i;
      const localLength = q - local;
      const isRow = localLength === 3 && b[local] === 0x72 && b[local + 1] === 0x6f && b[local + 2] === 0x77;
      const isCell = localLength === 1 && b[local] === 0x63; /* c */
      // The end of the tag: the first '>' outside quotes (a cell's or row's attributes are read on the way).
      const gt = !closing && (isCell || isRow) ? this.readAttrs(b, q, n) : tagEnd(b, q, n);
      if (gt < 0) return i;
      const selfClosing = b[gt - 1] === SLASH;
      if (closing) {
        if (isRow) this.endRow();
        i = gt + 1;
        continue;
      }
      if (isCell) {
        if (selfClosing) {
          this.cell(b, null, 0, 0);
          i = gt + 1;
          continue;
        }
        if (local === p) {
          // Most cells are `<c …><v>value</v></c>`: read that shape in place.
          const after = this.plainCell(b, gt + 1, n);
          if (after === NEED_MORE) return i;
          if (after >= 0) {
            i = after;
            continue;
          }
        }
        const tags = this.tagsFor(local === p ? '' : b.toString('latin1', p, local));
        const end = b.indexOf(tags.cClose, gt + 1);
        if (end < 0) return i;
        this.cell(b, tags, gt + 1, end);
        i = end + tags.cClose.length;
        continue;
      }
      if (isRow) {
        this.startRow(b);
        if (selfClosing) this.endRow();
      }
      i = gt + 1;
    }
  }

  // Where the last tag's r, t and s attribute values are (start -1: absent).
  private rS = -1;
  private rE = -1;
  private tS = -1;
  private tE = -1;
  private sS = -1;
  private sE = -1;

  /**
   * Reads a tag's attributes from `k` (just after its name) to its end, noting where the unprefixed r, t
   * and s values are; returns the index of the tag's '>' (-1: the input ends first). Anything that is not
   * `name="value"` ends the reading of attributes, as a reader of a broken tag must; the tag's end is
   * still found.
   */
  private readAttrs(b: Buffer, k: number, n: number): number {
    this.rS = this.tS = this.sS = -1;
    for (;;) {
      while (k < n && isSpace(b[k])) k++;
      if (k >= n) return -1;
      const c = b[k];
      if (c === GT) return k;
      const ns = k;
      while (k < n && b[k] !== EQ && b[k] !== GT && !isSpace(b[k])) k++;
      const ne = k;
      while (k < n && isSpace(b[k])) k++;
      if (k >= n) return -1;
      if (b[k] !== EQ) return tagEnd(b, ns, n); // a lone '/' of a self-closing tag, or junk
      k++;
      while (k < n && isSpace(b[k])) k++;
      if (k >= n) return -1;
      const quote = b[k];
      if (quote !== DQUOTE && quote !== SQUOTE) return tagEnd(b, k, n);
      const vs = k + 1;
      let ve = vs;
      while (ve < n && b[ve] !== quote) ve++;
      if (ve >= n) return -1;
      if (ne - ns === 1) {
        const name = b[ns];
        if (name === 0x72 /* r */) {
          this.rS = vs;
          this.rE = ve;
        } else if (name === 0x74 /* t */) {
          this.tS = vs;
          this.tE = ve;
        } else if (name === 0x73 /* s */) {
          this.sS = vs;
          this.sE = ve;
        }
      }
      k = ve + 1;
    }
  }

  /**
   * A cell of the common shape `<c …><v>value</v></c>` (no prefix, no formula, no entities) read in
   * place: returns where the cell ends, NEED_MORE when the input stops inside it, or -1 for any other
   * shape (the general path reads it).
   */
  private plainCell(b: Buffer, k: number, n: number): number {
    if (k + 3 > n) return NEED_MORE;
    if (b[k] !== LT || b[k + 1] !== 0x76 /* v */ || b[k + 2] !== GT) return -1;
    const vs = k + 3;
    let ve = vs;
    while (ve < n) {
      const c = b[ve];
      if (c === LT) break;
      if (c === AMP) return -1;
      ve++;
    }
    if (ve + 8 > n) return NEED_MORE;
    for (let j = 0; j < 8; j++) if (b[ve + j] !== PLAIN_CELL_END[j]) return -1;
    const before = this.col;
    const type = this.startCell(b);
    if (type === T_INLINE) {
      this.col = before; // the general path reads it again
      return -1;
    }
    if (ve > vs) this.putBytes(type, this.style, b, vs, ve);
    return ve + 8;
  }

  /** From the cell's attributes (readAttrs): sets its column and style, returns its type. */
  private startCell(b: Buffer): number {
    const col = this.rS < 0 ? this.col + 1 : this.columnOf(b, this.rS, this.rE);
    if (col < 0 || col >= MAX_COLUMNS) {
      throw new InvalidWorkbookError(`A worksheet cell has an impossible reference.`);
    }
    this.col = col;
    this.style = this.sS < 0 ? 0 : this.unsigned(b, this.sS, this.sE);
    return this.tS < 0 ? T_NUMBER : this.typeOf(b, this.tS, this.tE);
  }

  /** An attribute value as text (entities decoded). */
  private text(b: Buffer, s: number, e: number): string {
    const v = b.toString('utf8', s, e);
    return hasByte(b, AMP, s, e) ? decodeEntities('worksheet', v) : v;
  }

  /** From the row's attributes (readAttrs). */
  private startRow(b: Buffer): void {
    this.rowNum = this.rS < 0 ? this.rowNum + 1 : this.unsigned(b, this.rS, this.rE);
    if (!(this.rowNum > this.lineWritten)) {
      throw new InvalidWorkbookError('A worksheet lists its rows out of order. Save it again from Excel.');
    }
    if (this.rowNum > MAX_ROWS) {
      throw new InvalidWorkbookError(
        `A worksheet row is numbered ${this.rowNum}, past Excel's last row (${MAX_ROWS}). Save the file again from Excel.`,
      );
    }
    this.serial++;
    this.rowLength = 0;
    this.rowWidth = 0;
    this.col = -1;
  }

  /** Digits as a number; anything else is read as text the way Number() reads it (NaN if it is not one). */
  private unsigned(b: Buffer, s: number, e: number): number {
    let v = 0;
    for (let k = s; k < e; k++) {
      const c = b[k];
      if (!isDigit(c) || k - s > 15) return Number(this.text(b, s, e));
      v = v * 10 + (c - ZERO);
    }
    return s === e ? 0 : v;
  }

  /** A cell whose attributes readAttrs has read; its content is in [cs, ce) (none when tags is null). */
  private cell(b: Buffer, tags: PrefixTags | null, cs: number, ce: number): void {
    const type = this.startCell(b);
    const style = this.style;
    if (!tags) return; // <c/>: no value
    if (type === T_INLINE) {
      this.putText(inlineText(this.part, b.toString('utf8', cs, ce)));
      return;
    }
    // The value: the text of <v> (formulas keep their cached result there).
    let vs = b.indexOf(tags.vOpen, cs);
    if (vs >= 0 && vs < ce) vs += tags.vOpen.length;
    else {
      vs = b.indexOf(tags.vOpenAttrs, cs); // `<v xml:space="preserve">` and the like
      if (vs < 0 || vs >= ce) return;
      const gt = b.indexOf(GT, vs);
      if (gt < 0 || gt >= ce || b[gt - 1] === SLASH) return;
      vs = gt + 1;
    }
    const ve = b.indexOf(tags.vClose, vs);
    if (ve < 0 || ve > ce) throw broken(this.part);
    if (ve === vs) return;
    if (hasByte(b, AMP, vs, ve) || hasByte(b, LT, vs, ve)) {
      // Entities or CDATA: read as text.
      this.putValue(type, style, textOf(this.part, b.toString('utf8', vs, ve)));
      return;
    }
    this.putBytes(type, style, b, vs, ve);
  }

  /** The column of a reference such as "AB12" (0-based); -1 when it has no letters. */
  private columnOf(b: Buffer, s: number, e: number): number {
    let col = 0;
    let k = s;
    for (; k < e; k++) {
      const c = b[k] | 0x20; // lower case
      if (c < 0x61 || c > 0x7a) break;
      col = col * 26 + (c - 0x60);
      if (col > MAX_COLUMNS) return MAX_COLUMNS;
    }
    if (k < e && b[k] === AMP) return columnOfText(this.text(b, s, e)); // an escaped reference
    return col - 1;
  }

  private typeOf(b: Buffer, s: number, e: number): number {
    if (e - s === 1 && b[s] === 0x73 /* s */) return T_SHARED;
    return TYPES.get(this.text(b, s, e)) ?? T_NUMBER;
  }

  /** A cell value given as raw bytes (no entities): copied as it is wherever the type allows. */
  private putBytes(type: number, style: number, b: Buffer, s: number, e: number): void {
    switch (type) {
      case T_SHARED: {
        const index = this.unsigned(b, s, e);
        const length = this.wb.sharedStrings.fieldLength(index);
        this.reserve(length);
        const written = this.wb.sharedStrings.copyField(index, this.row, this.rowLength);
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
  private putValue(type: number, style: number, raw: string): void {
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

  private putDate(serial: number, format: DateFormat): void {
    const bytes = this.dates.of(serial, format);
    this.putRaw(bytes, 0, bytes.length);
  }

  /** Text as a CSV field (empty text sets nothing, as an empty cell). */
  private putText(v: string): void {
    if (v === '') return;
    const field = csvField(v);
    const length = Buffer.byteLength(field, 'utf8');
    this.reserve(length);
    this.commit(this.row.write(field, this.rowLength, 'utf8'));
  }

  /** Bytes that are already a CSV field. */
  private putRaw(b: Buffer, s: number, e: number): void {
    if (e <= s) return;
    this.reserve(e - s);
    this.commit(copyBytes(b, s, e, this.row, this.rowLength));
  }

  private reserve(length: number): void {
    if (this.rowLength + length <= this.row.length) return;
    if (this.rowLength + length > MAX_ROW_BYTES) {
      throw new InvalidWorkbookError(
        `A worksheet row is larger than ${MAX_ROW_BYTES / 1024 / 1024} MB as CSV. Save the sheet as CSV from Excel and upload that.`,
      );
    }
    const grown = Buffer.allocUnsafe(Math.max(this.row.length * 2, this.rowLength + length));
    this.row.copy(grown, 0, 0, this.rowLength);
    this.row = grown;
  }

  /** The bytes just written to the row are this cell's field. */
  private commit(length: number): void {
    const col = this.col;
    this.starts[col] = this.rowLength;
    this.rowLength += length;
    this.ends[col] = this.rowLength;
    this.setIn[col] = this.serial;
    if (col + 1 > this.rowWidth) this.rowWidth = col + 1;
  }

  private endRow(): void {
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
    for (let c = 0; c < this.width; c++) {
      if (c > 0) out[at++] = COMMA;
      if (this.setIn[c] === this.serial) at += copyBytes(this.row, this.starts[c], this.ends[c], out, at);
    }
    out[at++] = LF;
    this.outLength = at;
    this.lineWritten = this.rowNum;
  }

  /** Makes room for `length` more output bytes. */
  private room(length: number): void {
    if (this.outLength + length <= this.out.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.outLength + length));
    this.out.copy(grown, 0, 0, this.outLength);
    this.out = grown;
  }
}
