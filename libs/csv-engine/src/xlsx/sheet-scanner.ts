// A worksheet turned into CSV bytes as its XML streams in: the reader's hot loop. It works on the inflated
// bytes themselves — finds tags with Buffer.indexOf, reads the three attributes a cell needs (r, t, s)
// as bytes, and copies a cell's value (a number, a shared string's prepared field) straight into the row
// — so a plain cell makes no JS string at all. Only what needs it is decoded: entities, CDATA, inline
// rich text, date serials and numbers that are not already in plain form. Text is read as Excel shows it:
// XML line ends normalised, inline strings' `_xHHHH_` escapes decoded. The guards of every part hold:
// a DTD is refused, entities other than the predefined ones are refused, nothing is expanded.
import { InvalidWorkbookError } from '../errors';
import { broken, refused } from './xml';
import { inlineText, textOf } from './cell-text';
import type { EntrySink } from './zip';
import {
  hasByte,
  OUT_CHUNK as ROWS_OUT_CHUNK,
  SheetRows,
  T_INLINE as ROWS_T_INLINE,
  T_NUMBER as ROWS_T_NUMBER,
  type CsvBytes,
  type SheetContext,
} from './sheet-rows';

export type { CsvBytes, SheetContext } from './sheet-rows';

// Module-level copies of imported constants for the hot loop (see mapping/run.ts).
const OUT_CHUNK = ROWS_OUT_CHUNK;
const T_INLINE = ROWS_T_INLINE;
const T_NUMBER = ROWS_T_NUMBER;

/** A cell or tag longer than this is not something a workbook writes (Excel caps a cell at 32,767 chars). */
const MAX_PENDING = 16 * 1024 * 1024;
/** Excel's own limits: 16,384 columns, 1,048,576 rows. */
const MAX_COLUMNS = 16_384;
const MAX_ROWS = 1_048_576;
/** How much of a chunk's start is joined first to the cut tag before it (a cell is ~40 bytes). */
const JOIN_BYTES = 1024;

const LT = 0x3c;
const SPACE = 0x20;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QMARK = 0x3f;
const EQ = 0x3d;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const COLON = 0x3a;
const AMP = 0x26;
const MINUS = 0x2d;

const EMPTY = Buffer.alloc(0);
/** plainCell's answer when the input stops inside the cell. */
const NEED_MORE = -2;
/** cellAttrs' answer for a tag it leaves to readAttrs. */
const OTHER_SHAPE = -3;
const PLAIN_CELL_END = Buffer.from('</v></c>');

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
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
export class SheetToCsv extends SheetRows implements EntrySink {
  private pending: Buffer = EMPTY;
  private readonly prefixes = new Map<string, PrefixTags>();

  constructor(part: string, wb: SheetContext, sink: CsvBytes | null) {
    super(part, wb, sink);
  }

  data(chunk: Uint8Array): void {
    const c = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let b = c;
    let from = 0;
    const p = this.pending.length;
    if (p > 0) {
      // The tag or cell cut at the end of the last chunk is finished on a join of it and as much of this
      // chunk's start as that takes; the rest of the chunk is read in place (joining it whole copied every
      // inflated byte once more).
      for (let take = Math.min(c.length, JOIN_BYTES); ; take = Math.min(c.length, take * 4)) {
        const joined = Buffer.concat([this.pending, c.subarray(0, take)]);
        const used = this.scan(joined, false, 0);
        if (used >= p) {
          from = used - p;
          break;
        }
        if (take === c.length) {
          b = joined;
          from = used;
          break;
        }
      }
    }
    const used = from >= b.length ? from : this.scan(b, false, from);
    // Copied: the caller may reuse its chunk, and a small tail should not pin a large one.
    this.pending = used >= b.length ? EMPTY : Buffer.from(b.subarray(used));
    if (this.pending.length > MAX_PENDING) throw refused(this.part, 'has a cell or tag larger than 16 MB');
    if (this.outLength >= OUT_CHUNK) this.flush();
  }

  end(): void {
    const b = this.pending;
    const used = this.scan(b, true, 0);
    this.pending = EMPTY;
    for (let i = used; i < b.length; i++) if (!isSpace(b[i])) throw broken(this.part);
    this.flush();
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

  /** Reads tags from b[from..]; returns how many bytes were used (the rest waits for more input). */
  private scan(b: Buffer, final: boolean, from: number): number {
    const n = b.length;
    let i = from;
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
      let gt = closing || !isCell ? OTHER_SHAPE : this.cellAttrs(b, q, n);
      if (gt === OTHER_SHAPE) gt = !closing && (isCell || isRow) ? this.readAttrs(b, q, n) : tagEnd(b, q, n);
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
   * readAttrs for a cell tag of the shape writers use, ` r="A1" s="1" t="s"` (r, s and t in any order,
   * one space before each, double quotes): the same answer in fewer steps. OTHER_SHAPE for anything else,
   * which readAttrs then reads.
   */
  private cellAttrs(b: Buffer, k: number, n: number): number {
    this.rS = this.tS = this.sS = -1;
    for (;;) {
      if (k >= n) return -1;
      const c = b[k];
      if (c === GT) return k;
      if (c !== SPACE || k + 4 > n || b[k + 2] !== EQ || b[k + 3] !== DQUOTE) return OTHER_SHAPE;
      const name = b[k + 1];
      const vs = k + 4;
      let ve = vs;
      while (ve < n && b[ve] !== DQUOTE) ve++;
      if (ve >= n) return -1;
      if (!this.note(name, vs, ve)) return OTHER_SHAPE;
      k = ve + 1;
    }
  }

  /** Notes where attribute `name`'s value is when it is r, t or s; false for any other name. */
  private note(name: number, vs: number, ve: number): boolean {
    if (name === 0x72 /* r */) {
      this.rS = vs;
      this.rE = ve;
    } else if (name === 0x74 /* t */) {
      this.tS = vs;
      this.tE = ve;
    } else if (name === 0x73 /* s */) {
      this.sS = vs;
      this.sE = ve;
    } else return false;
    return true;
  }

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
      if (ne - ns === 1) this.note(b[ns], vs, ve);
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
    this.newRow();
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
}
