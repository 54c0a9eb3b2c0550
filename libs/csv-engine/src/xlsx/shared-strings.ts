// A workbook's shared strings table, held compactly and ready to copy into CSV. A large sheet can point
// at a million distinct strings; kept as a million JS strings (each sliced from the decoded XML it came
// from) the table cost ~70 MB of heap and pinned the decoded chunks. Here each string is stored once as
// the UTF-8 bytes of its CSV field (quoted when it must be), in blocks of 65,536 strings with one
// Int32Array of end offsets: the table costs about its text plus 4 bytes a string, and a cell that
// points at it is one byte copy, with no string made per cell.
const BLOCK_BITS = 16;
const BLOCK_SIZE = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK_SIZE - 1;
const DQUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/** A value as a CSV field: quoted (inner quotes doubled) when it holds a quote, comma or line break. */
export function csvField(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * Copies src[s, e) into dst at `at`; returns the bytes copied. Short ranges (most cells) are copied by a
 * plain loop: Buffer#copy costs a call into the runtime that outweighs a few dozen bytes.
 */
export function copyBytes(src: Uint8Array, s: number, e: number, dst: Uint8Array, at: number): number {
  const length = e - s;
  if (length > 48) dst.set(src.subarray(s, e), at);
  else for (let k = 0; k < length; k++) dst[at + k] = src[s + k];
  return length;
}

export class SharedStrings {
  private readonly blocks: Buffer[] = [];
  /** The block being filled: the CSV fields of the strings added since the last seal, back to back. */
  private cur = Buffer.allocUnsafe(64 * 1024);
  private curLength = 0;
  private curCount = 0;
  private ends = new Int32Array(1024);
  private count = 0;

  /** Adds the next string (index = the number added before it). */
  push(s: string): void {
    const field = csvField(s);
    this.room(Buffer.byteLength(field, 'utf8'));
    this.curLength += this.cur.write(field, this.curLength, 'utf8');
    this.added();
  }

  /**
   * Adds the next string given as its bytes, src[s, e): valid UTF-8 (what push(text) would encode) with no
   * CR. Written as its CSV field, byte for byte what push() writes for the same text.
   */
  pushBytes(src: Buffer, s: number, e: number): void {
    let quotes = 0;
    let quote = false;
    for (let k = s; k < e; k++) {
      const c = src[k];
      if (c === DQUOTE) quotes++;
      else if (c === COMMA || c === LF || c === CR) quote = true;
    }
    if (quotes > 0) quote = true;
    this.room(e - s + quotes + 2);
    const out = this.cur;
    if (!quote) this.curLength += copyBytes(src, s, e, out, this.curLength);
    else {
      let at = this.curLength;
      out[at++] = DQUOTE;
      if (quotes === 0) at += copyBytes(src, s, e, out, at);
      else
        for (let k = s; k < e; k++) {
          const c = src[k];
          out[at++] = c;
          if (c === DQUOTE) out[at++] = DQUOTE;
        }
      out[at++] = DQUOTE;
      this.curLength = at;
    }
    this.added();
  }

  private room(length: number): void {
    if (this.curLength + length <= this.cur.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.cur.length * 2, this.curLength + length));
    this.cur.copy(grown, 0, 0, this.curLength);
    this.cur = grown;
  }

  /** The field just written to the block is string `count`. */
  private added(): void {
    if (this.count === this.ends.length) {
      const grown = new Int32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.ends[this.count++] = this.curLength;
    if (++this.curCount === BLOCK_SIZE) this.seal();
  }

  /** Keeps the strings added since the last block as one block of bytes (an exact copy). */
  private seal(): void {
    if (this.curCount === 0) return;
    this.blocks.push(Buffer.from(this.cur.subarray(0, this.curLength)));
    this.curLength = 0;
    this.curCount = 0;
  }

  /** Call once every string is added: the last block is sealed and the offsets trimmed. */
  finish(): this {
    this.seal();
    this.ends = this.ends.slice(0, this.count);
    this.cur = Buffer.alloc(0);
    return this;
  }

  get length(): number {
    return this.count;
  }

  /**
   * Copies string `index`'s CSV field into `out` at `at`; returns the bytes written, or -1 when there is
   * no such string. `out` must have room for fieldLength(index) bytes.
   */
  copyField(index: number, out: Buffer, at: number): number {
    const block = this.blocks[index >>> BLOCK_BITS];
    if (!(index >= 0 && index < this.count) || block === undefined) return -1;
    const start = (index & BLOCK_MASK) === 0 ? 0 : this.ends[index - 1];
    return copyBytes(block, start, this.ends[index], out, at);
  }

  /** The byte length of string `index`'s CSV field (0 when there is no such string). */
  fieldLength(index: number): number {
    if (!(index >= 0 && index < this.count)) return 0;
    const start = (index & BLOCK_MASK) === 0 ? 0 : this.ends[index - 1];
    return this.ends[index] - start;
  }
}
