// A workbook's shared strings table, held compactly. A large sheet can point at a million distinct
// strings; kept as a million JS strings (each sliced from the decoded XML it came from) the table cost
// ~70 MB of heap and pinned the decoded chunks. Here the strings are joined into flat blocks of 65,536
// with one Int32Array of end offsets, so the table costs about its text and 4 bytes a string, and a
// lookup is one slice of a block.
const BLOCK_BITS = 16;
const BLOCK_SIZE = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK_SIZE - 1;

export class SharedStrings {
  private readonly blocks: string[] = [];
  private pending: string[] = [];
  private pendingLength = 0;
  private ends = new Int32Array(1024);
  private count = 0;

  /** Adds the next string (index = the number added before it). */
  push(s: string): void {
    if (this.count === this.ends.length) {
      const grown = new Int32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.pendingLength += s.length;
    this.ends[this.count++] = this.pendingLength;
    this.pending.push(s);
    if (this.pending.length === BLOCK_SIZE) this.seal();
  }

  /** Joins the strings added since the last block into one flat block. */
  private seal(): void {
    if (this.pending.length === 0) return;
    this.blocks.push(this.pending.join(''));
    this.pending = [];
    this.pendingLength = 0;
  }

  /** Call once every string is added: the last block is sealed and the offsets trimmed. */
  finish(): this {
    this.seal();
    this.ends = this.ends.slice(0, this.count);
    return this;
  }

  get length(): number {
    return this.count;
  }

  /** The string at `index`, or undefined past the end (or before `finish`, past the last sealed block). */
  get(index: number): string | undefined {
    if (!(index >= 0 && index < this.count) || !Number.isInteger(index)) return undefined;
    const block = this.blocks[index >>> BLOCK_BITS];
    if (block === undefined) return undefined;
    const start = (index & BLOCK_MASK) === 0 ? 0 : this.ends[index - 1];
    return block.slice(start, this.ends[index]);
  }
}
