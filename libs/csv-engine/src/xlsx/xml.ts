// A streaming XML reader for workbook parts. Workbook XML never needs a DTD, so a document that declares
// one (the door to billion-laughs and external-entity tricks) is refused before any entity is read; an
// entity reference other than the five predefined ones is an error too (saxes does not expand them).
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { CsvEngineError, InvalidWorkbookError } from '../errors';
import type { EntrySink } from './zip';

export interface XmlHandlers {
  open(name: string, attrs: Record<string, string>): void;
  close(name: string): void;
  text?(text: string): void;
}

/** Tag names without their namespace prefix (`x:c` → `c`). */
function local(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

export function refused(part: string, why: string): InvalidWorkbookError {
  return new InvalidWorkbookError(
    `The workbook part "${part}" ${why}, which workbooks never need, so the file was refused. Save it again from Excel as .xlsx (or CSV) and upload that.`,
  );
}

/** A part whose XML cannot be read. */
export function broken(part: string): InvalidWorkbookError {
  return new InvalidWorkbookError(
    `The workbook part "${part}" is not well-formed XML. Open the file in Excel, save it again as .xlsx (or CSV) and upload that.`,
  );
}

/** An EntrySink that decodes UTF-8 and feeds the handlers as tags arrive. */
export function xmlSink(part: string, h: XmlHandlers): EntrySink {
  const parser = new SaxesParser({ xmlns: false, position: false });
  parser.on('doctype', () => {
    throw refused(part, 'declares a DTD');
  });
  parser.on('opentag', (tag) => {
    const t = tag as SaxesTagPlain;
    h.open(local(t.name), t.attributes);
  });
  parser.on('closetag', (tag) => h.close(local(tag.name)));
  if (h.text) {
    const text = h.text;
    parser.on('text', text);
    parser.on('cdata', text);
  }
  const decoder = new TextDecoder('utf-8');
  const run = (f: () => void) => {
    try {
      f();
    } catch (e) {
      if (e instanceof CsvEngineError) throw e;
      const message = e instanceof Error ? e.message : String(e);
      if (/entity/i.test(message)) throw refused(part, 'uses an undeclared entity');
      throw broken(part);
    }
  };
  return {
    data(chunk) {
      run(() => parser.write(decoder.decode(chunk, { stream: true })));
    },
    end() {
      run(() => {
        parser.write(decoder.decode());
        parser.close();
      });
    },
  };
}

/** Collects an entry's text (for small parts: relationships, the workbook, styles). */
export function textSink(max: number, part: string, done: (text: string) => void): EntrySink {
  const chunks: Uint8Array[] = [];
  let n = 0;
  return {
    data(c) {
      n += c.length;
      if (n > max) throw refused(part, `is larger than ${Math.round(max / 1048576)} MB`);
      chunks.push(c);
    },
    end() {
      done(xmlText(Buffer.concat(chunks)));
    },
  };
}

/**
 * A small part's bytes as text: UTF-8, or UTF-16 (either byte order) when a byte-order mark or the first
 * character `<` says so, as XML allows and Excel and LibreOffice read (some writers save `_rels/.rels` so).
 */
export function xmlText(b: Buffer): string {
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return b.toString('utf16le', 2);
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return swapped(b.subarray(2)).toString('utf16le');
  if (b.length >= 2 && b[0] === 0x3c && b[1] === 0x00) return b.toString('utf16le');
  if (b.length >= 2 && b[0] === 0x00 && b[1] === 0x3c) return swapped(b).toString('utf16le');
  const bom = b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
  return b.toString('utf8', bom ? 3 : 0);
}

/** UTF-16BE bytes as UTF-16LE (a copy; an odd last byte is dropped). */
function swapped(b: Buffer): Buffer {
  const out = Buffer.from(b.subarray(0, b.length - (b.length % 2)));
  return out.swap16();
}

/** Parses a whole small document. */
export function parseXml(part: string, text: string, h: XmlHandlers): void {
  const sink = xmlSink(part, h);
  sink.data(Buffer.from(text, 'utf8'));
  sink.end();
}
