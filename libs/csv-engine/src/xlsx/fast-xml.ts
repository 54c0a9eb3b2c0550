// A lean streaming tokenizer for the two big parts of a workbook (worksheets and shared strings), several
// times faster than a general XML parser on them. It reads tags, attributes, text and CDATA (line ends
// normalised as XML requires); it skips comments and processing instructions; like xmlSink it refuses a
// DTD and any entity other than the five predefined ones and character references, so nothing is ever
// expanded. Well-formedness beyond that is not checked: a broken part gives wrong or missing cells at
// worst, never more memory or time.
import { broken, refused, type XmlHandlers } from './xml';
import { normalizeEol } from './xml-text';
import type { EntrySink } from './zip';

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** A tag, comment or CDATA section longer than this is not something a workbook writes. */
const MAX_PENDING = 16 * 1024 * 1024;

export function decodeEntities(part: string, s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_][\w.-]*);?/g, (m, name: string) => {
    if (!m.endsWith(';')) throw refused(part, 'has a broken entity reference');
    if (name[0] === '#') {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      if (!(code > 0 && code <= 0x10ffff)) throw refused(part, 'has an invalid character reference');
      return String.fromCodePoint(code);
    }
    const v = PREDEFINED[name];
    if (v === undefined) throw refused(part, 'uses an undeclared entity');
    return v;
  });
}

function localName(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Attributes of a tag's inside (after its name), e.g. ` r="A1" s="3" t="s"`. */
function attributes(part: string, tag: string, from: number): Record<string, string> {
  const out: Record<string, string> = {};
  let i = from;
  const n = tag.length;
  for (;;) {
    while (i < n && isSpace(tag.charCodeAt(i))) i++;
    if (i >= n) return out;
    const eq = tag.indexOf('=', i);
    if (eq < 0) return out; // a lone '/' of a self-closing tag, or junk
    const name = tag.slice(i, eq).trim();
    let q = eq + 1;
    while (q < n && isSpace(tag.charCodeAt(q))) q++;
    const quote = tag[q];
    if (quote !== '"' && quote !== "'") throw refused(part, 'has an attribute without quotes');
    const end = tag.indexOf(quote, q + 1);
    if (end < 0) throw refused(part, 'has an unterminated attribute');
    out[name] = decodeEntities(part, tag.slice(q + 1, end));
    i = end + 1;
  }
}

/**
 * An EntrySink that tokenizes as bytes arrive and calls the handlers (tag names without prefixes).
 * `idle()`: nothing is waiting for more input but whitespace (no cut tag, text, comment or character).
 */
export function fastXmlSink(part: string, h: XmlHandlers): EntrySink & { idle(): boolean } {
  const decoder = new TextDecoder('utf-8');
  let buf = '';

  const scan = (final: boolean) => {
    const b = buf;
    const n = b.length;
    let i = 0;
    for (;;) {
      const lt = b.indexOf('<', i);
      if (lt < 0) {
        // Text may end in a cut entity: keep it until its tag arrives (whitespace-only tails are dropped).
        if (final && b.slice(i).trim() !== '') throw broken(part);
        break;
      }
      if (lt > i && h.text) h.text(decodeEntities(part, normalizeEol(b.slice(i, lt))));
      i = lt;
      const c = b.charCodeAt(lt + 1);
      if (c !== c) break; // '<' is the last character: wait for more
      if (c === 33 /* ! */) {
        if (b.startsWith('<!--', lt)) {
          const end = b.indexOf('-->', lt + 4);
          if (end < 0) break;
          i = end + 3;
          continue;
        }
        if (b.startsWith('<![CDATA[', lt)) {
          const end = b.indexOf(']]>', lt + 9);
          if (end < 0) break;
          if (h.text) h.text(normalizeEol(b.slice(lt + 9, end)));
          i = end + 3;
          continue;
        }
        if (n - lt < 9 && !final) break; // too short to tell yet
        throw refused(part, 'declares a DTD');
      }
      if (c === 63 /* ? */) {
        const end = b.indexOf('?>', lt + 2);
        if (end < 0) break;
        i = end + 2;
        continue;
      }
      // The end of the tag: the first '>' outside quotes.
      let j = lt + 1;
      let quote = 0;
      for (; j < n; j++) {
        const ch = b.charCodeAt(j);
        if (quote) {
          if (ch === quote) quote = 0;
        } else if (ch === 34 || ch === 39) quote = ch;
        else if (ch === 62) break;
      }
      if (j >= n) break;
      if (c === 47 /* / */) {
        h.close(localName(b.slice(lt + 2, j).trim()));
      } else {
        const selfClosing = b.charCodeAt(j - 1) === 47;
        const tag = b.slice(lt + 1, selfClosing ? j - 1 : j);
        let k = 0;
        while (k < tag.length && !isSpace(tag.charCodeAt(k))) k++;
        const name = localName(tag.slice(0, k));
        h.open(name, k < tag.length ? attributes(part, tag, k) : {});
        if (selfClosing) h.close(name);
      }
      i = j + 1;
    }
    buf = i >= n ? '' : b.slice(i);
    if (buf.length > MAX_PENDING) throw refused(part, 'has a tag or text run larger than 16 MB');
    if (final && buf.trim() !== '') throw broken(part);
  };

  return {
    data(chunk) {
      const s = decoder.decode(chunk, { stream: true });
      buf = buf.length === 0 ? s : buf + s;
      scan(false);
    },
    end() {
      buf += decoder.decode();
      scan(true);
    },
    idle() {
      return buf.trim() === '';
    },
  };
}
