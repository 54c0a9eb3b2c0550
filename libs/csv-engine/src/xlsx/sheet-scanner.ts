// The worksheet reader's hot loop: a scanner that knows a sheet's shape (rows of cells, each with one
// value or an inline string) and jumps from tag to tag with indexOf instead of raising an event per tag.
// The same guards as every part: a DTD is refused, entities other than the predefined ones are refused.
import { InvalidWorkbookError } from '../errors';
import { decodeEntities } from './fast-xml';
import { refused } from './xml';
import type { EntrySink } from './zip';

export interface SheetEvents {
  startRow(r: string | null): void;
  /** A cell: its reference, type and style attributes and its value (inline strings as text). */
  cell(ref: string | null, type: string | null, style: string | null, value: string): void;
  endRow(): void;
}

/** A cell or tag longer than this is not something a workbook writes (Excel caps a cell at 32,767 chars). */
const MAX_PENDING = 16 * 1024 * 1024;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** The value of attribute `name` in a tag's attribute text, or null. */
export function attr(tag: string, name: string): string | null {
  let from = 0;
  for (;;) {
    const at = tag.indexOf(name, from);
    if (at < 0) return null;
    from = at + name.length;
    if (at > 0 && !isSpace(tag.charCodeAt(at - 1))) continue;
    let k = from;
    while (isSpace(tag.charCodeAt(k))) k++;
    if (tag.charCodeAt(k) !== 61 /* = */) continue;
    k++;
    while (isSpace(tag.charCodeAt(k))) k++;
    const quote = tag[k];
    if (quote !== '"' && quote !== "'") return null;
    const end = tag.indexOf(quote, k + 1);
    if (end < 0) return null;
    const v = tag.slice(k + 1, end);
    return v.indexOf('&') < 0 ? v : decodeEntities('worksheet', v);
  }
}

const T_ELEMENT = /<(?:[\w.-]+:)?t(?:\s[^>]*)?(?:\/>|>([\s\S]*?)<\/(?:[\w.-]+:)?t>)/g;
const PHONETIC = /<(?:[\w.-]+:)?rPh\b[\s\S]*?<\/(?:[\w.-]+:)?rPh>/g;

function textOf(part: string, s: string): string {
  const cdata = s.indexOf('<![CDATA[');
  if (cdata < 0) return decodeEntities(part, s);
  let out = '';
  let i = 0;
  for (;;) {
    const start = s.indexOf('<![CDATA[', i);
    if (start < 0) return out + decodeEntities(part, s.slice(i));
    const end = s.indexOf(']]>', start + 9);
    if (end < 0) throw refused(part, 'has an unterminated CDATA section');
    out += decodeEntities(part, s.slice(i, start)) + s.slice(start + 9, end);
    i = end + 3;
  }
}

/** The value inside `<c>…</c>`: the text of `<v>`, or of an inline string's `<t>` runs (not phonetic ones). */
function cellValue(part: string, inner: string, prefix: string, type: string | null): string {
  if (type === 'inlineStr') {
    let out = '';
    const body = inner.indexOf('rPh') < 0 ? inner : inner.replace(PHONETIC, '');
    for (const m of body.matchAll(T_ELEMENT)) if (m[1] !== undefined) out += textOf(part, m[1]);
    return out;
  }
  const open = `<${prefix}v>`;
  let v = inner.indexOf(open);
  let start = v + open.length;
  if (v < 0) {
    // `<v xml:space="preserve">` and the like.
    v = inner.indexOf(`<${prefix}v `);
    if (v < 0) return '';
    const gt = inner.indexOf('>', v);
    if (gt < 0 || inner.charCodeAt(gt - 1) === 47) return '';
    start = gt + 1;
  }
  const end = inner.indexOf(`</${prefix}v>`, start);
  if (end < 0) throw broken(part);
  return textOf(part, inner.slice(start, end));
}

function broken(part: string): InvalidWorkbookError {
  return new InvalidWorkbookError(
    `The workbook part "${part}" is not well-formed XML. Open the file in Excel, save it again as .xlsx (or CSV) and upload that.`,
  );
}

export function sheetSink(part: string, ev: SheetEvents): EntrySink {
  const decoder = new TextDecoder('utf-8');
  let buf = '';

  const scan = (final: boolean) => {
    const b = buf;
    const n = b.length;
    let i = 0;
    for (;;) {
      const lt = b.indexOf('<', i);
      if (lt < 0) {
        i = n; // text between rows and cells is layout whitespace
        break;
      }
      i = lt;
      let p = lt + 1;
      const closing = b.charCodeAt(p) === 47;
      if (closing) p++;
      const c0 = b.charCodeAt(p);
      if (c0 !== c0) break; // wait for more
      if (c0 === 33 /* ! */) {
        if (b.startsWith('<!--', lt)) {
          const end = b.indexOf('-->', lt + 4);
          if (end < 0) break;
          i = end + 3;
          continue;
        }
        if (b.startsWith('<![CDATA[', lt)) {
          const end = b.indexOf(']]>', lt + 9);
          if (end < 0) break;
          i = end + 3;
          continue;
        }
        if (n - lt < 9 && !final) break;
        throw refused(part, 'declares a DTD');
      }
      if (c0 === 63 /* ? */) {
        const end = b.indexOf('?>', lt + 2);
        if (end < 0) break;
        i = end + 2;
        continue;
      }
      let q = p;
      while (q < n) {
        const ch = b.charCodeAt(q);
        if (isSpace(ch) || ch === 62 || ch === 47) break;
        q++;
      }
      if (q >= n) break;
      const raw = b.slice(p, q);
      const colon = raw.indexOf(':');
      const name = colon < 0 ? raw : raw.slice(colon + 1);
      // The end of the tag: the first '>' outside quotes.
      let gt = q;
      let quote = 0;
      for (; gt < n; gt++) {
        const ch = b.charCodeAt(gt);
        if (quote) {
          if (ch === quote) quote = 0;
        } else if (ch === 34 || ch === 39) quote = ch;
        else if (ch === 62) break;
      }
      if (gt >= n) break;
      const selfClosing = b.charCodeAt(gt - 1) === 47;
      if (closing) {
        if (name === 'row') ev.endRow();
        i = gt + 1;
        continue;
      }
      if (name === 'c') {
        const tag = b.slice(q, selfClosing ? gt - 1 : gt);
        const type = attr(tag, 't');
        if (selfClosing) {
          ev.cell(attr(tag, 'r'), type, attr(tag, 's'), '');
          i = gt + 1;
          continue;
        }
        const close = `</${raw}>`;
        const end = b.indexOf(close, gt + 1);
        if (end < 0) break;
        const prefix = colon < 0 ? '' : raw.slice(0, colon + 1);
        ev.cell(attr(tag, 'r'), type, attr(tag, 's'), cellValue(part, b.slice(gt + 1, end), prefix, type));
        i = end + close.length;
        continue;
      }
      if (name === 'row') {
        ev.startRow(attr(b.slice(q, gt), 'r'));
        if (selfClosing) ev.endRow();
      }
      i = gt + 1;
    }
    buf = i >= n ? '' : b.slice(i);
    if (buf.length > MAX_PENDING) throw refused(part, 'has a cell or tag larger than 16 MB');
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
  };
}
