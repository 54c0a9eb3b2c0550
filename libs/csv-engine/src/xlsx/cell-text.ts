// The text of a worksheet cell's inline string or escaped value, as Excel shows it (see xml-text.ts).
import { decodeEntities } from './fast-xml';
import { refused } from './xml';
import { decodeEscapes, normalizeEol } from './xml-text';

const T_ELEMENT = /<(?:[\w.-]+:)?t(?:\s[^>]*)?(?:\/>|>([\s\S]*?)<\/(?:[\w.-]+:)?t>)/g;
const PHONETIC = /<(?:[\w.-]+:)?rPh\b[\s\S]*?<\/(?:[\w.-]+:)?rPh>/g;

/** Element text with line ends normalised, entities decoded and CDATA sections kept as they are. */
export function textOf(part: string, raw: string): string {
  const s = normalizeEol(raw); // before entities: a `&#13;` is a CR the writer meant
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

/** An inline string's text (escapes decoded): its `<t>` runs, phonetic ones (`<rPh>`) left out. */
export function inlineText(part: string, inner: string): string {
  let out = '';
  const body = inner.indexOf('rPh') < 0 ? inner : inner.replace(PHONETIC, '');
  for (const m of body.matchAll(T_ELEMENT)) if (m[1] !== undefined) out += textOf(part, m[1]);
  return decodeEscapes(out);
}
