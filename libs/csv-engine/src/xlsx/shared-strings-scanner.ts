// The shared strings part read as bytes. A big workbook's table is a million `<si><t>text</t></si>` items
// (26 MB for bench:xlsx's 1M rows): decoded to one JS string, tokenized and re-encoded it took ~1.2 s of the
// read. Here an item of that plain shape (no prefix, text without entities, CR, `_x` escapes or invalid
// UTF-8) goes from the inflated bytes straight into the table; anything else — the prolog, the <sst> tag,
// rich text, phonetic runs, comments, a DTD, prefixes, broken XML — is handed, in order and whole, to the
// general tokenizer (fastXmlSink), which reads it as before and keeps every guard (a DTD or an undeclared
// entity is refused, nothing is expanded). Bytes are handed on only up to a '>' (never inside a character),
// and an item is read here only while that tokenizer waits on nothing, so the strings keep their order.
import { isUtf8 } from 'node:buffer';
import { fastXmlSink } from './fast-xml';
import type { SharedStrings } from './shared-strings';
import { decodeEscapes } from './xml-text';
import type { EntrySink } from './zip';

const LT = 0x3c;
const GT = 0x3e;
const AMP = 0x26;
const CR = 0x0d;
const UNDERSCORE = 0x5f;
const LOWER_X = 0x78;
const SI_T = Buffer.from('<si><t>');
const SI_T_PRESERVE = Buffer.from('<si><t xml:space="preserve">');
const T_SI_END = Buffer.from('</t></si>');
const SI_END = Buffer.from('</si>');
/** Bytes kept waiting for the end of an item before they are handed to the general tokenizer. */
const MAX_WAIT = 1024 * 1024;
const EMPTY = Buffer.alloc(0);

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function startsWith(b: Buffer, at: number, tag: Buffer): boolean {
  if (at + tag.length > b.length) return false;
  for (let k = 0; k < tag.length; k++) if (b[at + k] !== tag[k]) return false;
  return true;
}

/** `<si>` items: the text of every `<t>` outside phonetic runs (`<rPh>`), `_xHHHH_` escapes decoded. */
export function sharedStringsSink(part: string, out: SharedStrings): EntrySink {
  let inSi = false;
  let inT = false;
  let phonetic = 0;
  let text = '';
  const general = fastXmlSink(part, {
    open(name) {
      if (name === 'si') {
        inSi = true;
        text = '';
      } else if (name === 't') inT = true;
      else if (name === 'rPh') phonetic++;
    },
    close(name) {
      if (name === 'si') {
        out.push(decodeEscapes(text));
        inSi = false;
      } else if (name === 't') inT = false;
      else if (name === 'rPh') phonetic--;
    },
    text(t) {
      if (inSi && inT && phonetic === 0) text += t;
    },
  });
  return new SharedStringsScanner(general, () => !inSi && general.idle(), out);
}

/** Reads plain items itself and hands everything else to `general` (see the top of this file). */
class SharedStringsScanner implements EntrySink {
  private pending: Buffer = EMPTY;

  constructor(
    private readonly general: EntrySink,
    private readonly generalIdle: () => boolean,
    private readonly out: SharedStrings,
  ) {}

  data(chunk: Uint8Array): void {
    const b =
      this.pending.length === 0
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : Buffer.concat([this.pending, chunk]);
    let used = this.scan(b);
    if (b.length - used > MAX_WAIT) used = this.handOn(b, used, b.length, true);
    // Copied: a small tail should not pin a large chunk.
    this.pending = used >= b.length ? EMPTY : Buffer.from(b.subarray(used));
  }

  end(): void {
    const b = this.pending;
    this.pending = EMPTY;
    if (b.length > 0) this.general.data(b);
    this.general.end();
  }

  /** Hands b[from, to) on, up to its last '>' (all of it when `all`); returns where it stopped. */
  private handOn(b: Buffer, from: number, to: number, all = false): number {
    let end = to;
    if (!all) {
      const gt = b.lastIndexOf(GT, to - 1);
      if (gt < from) return from;
      end = gt + 1;
    }
    if (end > from) this.general.data(b.subarray(from, end));
    return end;
  }

  /** Reads items from `b`; returns how many bytes were used (the rest waits for more input). */
  private scan(b: Buffer): number {
    const n = b.length;
    const out = this.out;
    let i = 0;
    // Only handing bytes on changes what the general tokenizer waits on.
    let idle = this.generalIdle();
    for (;;) {
      let j = i;
      if (idle) {
        while (j < n && isSpace(b[j])) j++;
        if (j >= n) return n;
        const open = startsWith(b, j, SI_T)
          ? SI_T.length
          : startsWith(b, j, SI_T_PRESERVE)
            ? SI_T_PRESERVE.length
            : 0;
        if (open > 0) {
          const ts = j + open;
          let te = ts;
          let plain = true;
          let ascii = true;
          for (; te < n; te++) {
            const c = b[te];
            if (c === LT) break;
            if (c === AMP || c === CR || (c === UNDERSCORE && te + 1 < n && b[te + 1] === LOWER_X))
              plain = false;
            else if (c >= 0x80) ascii = false;
          }
          if (te + T_SI_END.length > n) return j; // the item is cut: wait for the rest
          if (plain && startsWith(b, te, T_SI_END) && (ascii || isUtf8(b.subarray(ts, te)))) {
            out.pushBytes(b, ts, te);
            i = te + T_SI_END.length;
            continue;
          }
        } else if (n - j < SI_T_PRESERVE.length && b[j] === LT) {
          // Too short to tell whether it is a plain item: wait, unless it is plainly something else.
          const have = Math.min(n - j, SI_T.length);
          if (SI_T.subarray(0, have).equals(b.subarray(j, j + have))) return j;
        }
      }
      // Any other shape, or the general tokenizer is inside something: it reads up to the end of the next
      // item (or all there is up to a '>').
      const end = b.indexOf(SI_END, j);
      const next = end < 0 ? this.handOn(b, j, n) : this.handOn(b, j, end + SI_END.length);
      if (next === j) return j;
      i = next;
      idle = this.generalIdle();
    }
  }
}
