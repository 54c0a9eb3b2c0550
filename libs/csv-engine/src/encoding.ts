// Byte-level input decoding: binary sniffing, BOM/UTF-16 detection, UTF-8 validation with a Windows-1252
// fallback, and transcoding of everything to UTF-8 bytes so the parser only ever sees UTF-8.
import { isAscii, isUtf8 } from 'node:buffer';
import type { InputEncoding } from '@csv-mapper/contracts';
import { BinaryFileError } from './errors';

const EMPTY: Buffer = Buffer.alloc(0);

export type { InputEncoding };
export type OutputEncoding = 'utf-8' | 'windows-1252';

export const INPUT_ENCODINGS: readonly InputEncoding[] = [
  'utf-8',
  'utf-16le',
  'utf-16be',
  'windows-1252',
  'iso-8859-1',
];

/** Windows-1252 bytes 0x80–0x9F; the five undefined positions map to the C1 control of the same value. */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8d,
  0x017d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a,
  0x0153, 0x9d, 0x017e, 0x0178,
];

function cp1252CodePoint(b: number): number {
  return b >= 0x80 && b < 0xa0 ? CP1252_HIGH[b - 0x80] : b;
}

/** UTF-8 bytes of every Windows-1252 byte, packed: CP_UTF8[b*4] = length, then the bytes. */
const CP_UTF8 = (() => {
  const t = new Uint8Array(256 * 4);
  for (let b = 0; b < 256; b++) {
    const bytes = Buffer.from(String.fromCodePoint(cp1252CodePoint(b)), 'utf8');
    t[b * 4] = bytes.length;
    for (let k = 0; k < bytes.length; k++) t[b * 4 + 1 + k] = bytes[k];
  }
  return t;
})();

const UNICODE_TO_CP1252 = (() => {
  const m = new Map<number, number>();
  for (let b = 0x80; b < 0x100; b++) m.set(cp1252CodePoint(b), b);
  return m;
})();

export function decodeWindows1252(src: Buffer): Buffer {
  if (isAscii(src)) return src;
  const out = Buffer.allocUnsafe(src.length * 3);
  let o = 0;
  for (let i = 0; i < src.length; i++) {
    const b = src[i];
    if (b < 0x80) out[o++] = b;
    else {
      const p = b * 4;
      const len = CP_UTF8[p];
      for (let k = 1; k <= len; k++) out[o++] = CP_UTF8[p + k];
    }
  }
  return out.subarray(0, o);
}

/**
 * UTF-8 → Windows-1252. Characters the code page cannot hold become '?'; the count of those is returned so the
 * caller can report it. The input must end on a character boundary (callers flush at row ends).
 */
export function encodeWindows1252(src: Buffer): { bytes: Buffer; unmappable: number } {
  if (isAscii(src)) return { bytes: src, unmappable: 0 };
  const out = Buffer.allocUnsafe(src.length);
  let o = 0;
  let unmappable = 0;
  const s = src.toString('utf8');
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) out[o++] = cp;
    else {
      const b = UNICODE_TO_CP1252.get(cp);
      if (b === undefined) {
        out[o++] = 0x3f;
        unmappable++;
      } else out[o++] = b;
    }
  }
  return { bytes: out.subarray(0, o), unmappable };
}

const ENCODING_NAMES: Record<InputEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 (little-endian)',
  'utf-16be': 'UTF-16 (big-endian)',
  'windows-1252': 'Windows-1252',
  'iso-8859-1': 'ISO-8859-1',
};

/**
 * Why a file was read in `encoding`, in one sentence for the person who uploaded it. The Windows-1252
 * fallback in particular must be said out loud: the text may be wrong if the file was in another code page.
 */
export function encodingReason(encoding: InputEncoding, bom: boolean, chosen = false): string {
  const name = ENCODING_NAMES[encoding];
  if (chosen) return `Read as ${name}, the encoding chosen for this file.`;
  if (bom) return `Read as ${name}: the file starts with a ${name} byte order mark.`;
  switch (encoding) {
    case 'windows-1252':
      return 'Read as Windows-1252 because the file is not valid UTF-8.';
    case 'utf-16le':
    case 'utf-16be':
      return `Read as ${name}: every other byte of the text is zero.`;
    default:
      return 'Read as UTF-8: the file is valid UTF-8.';
  }
}

interface Signature {
  bytes: number[];
  kind: string;
}

// Magic numbers of the files people most often upload by mistake.
const SIGNATURES: Signature[] = [
  { bytes: [0x50, 0x4b, 0x03, 0x04], kind: 'Excel/ZIP' },
  { bytes: [0x50, 0x4b, 0x05, 0x06], kind: 'Excel/ZIP' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], kind: 'Excel (.xls)' },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], kind: 'PDF' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], kind: 'PNG image' },
  { bytes: [0xff, 0xd8, 0xff], kind: 'JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], kind: 'GIF image' },
  { bytes: [0x1f, 0x8b], kind: 'gzip archive' },
  { bytes: [0x52, 0x61, 0x72, 0x21], kind: 'RAR archive' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], kind: '7-Zip archive' },
  { bytes: [0x42, 0x5a, 0x68], kind: 'bzip2 archive' },
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], kind: 'xz archive' },
  { bytes: [0x50, 0x41, 0x52, 0x31], kind: 'Parquet' },
  { bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66], kind: 'SQLite database' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], kind: 'executable' },
  { bytes: [0x4d, 0x5a], kind: 'executable' },
];

const SIGNATURE_BYTES = 8;
/** Bytes after the first non-ASCII byte that decide between UTF-8 and Windows-1252. */
const DECIDE_WINDOW = 64 * 1024;

/** Returns the kind of a known binary format the head of a file starts with, or null. */
export function binarySignature(head: Uint8Array): string | null {
  for (const sig of SIGNATURES) {
    if (head.length < sig.bytes.length) continue;
    let ok = true;
    for (let k = 0; k < sig.bytes.length; k++) {
      if (head[k] !== sig.bytes[k]) {
        ok = false;
        break;
      }
    }
    // 'MZ' and 'BZh' are also plausible text starts; only call them binary when NUL/controls follow.
    if (ok && (sig.kind === 'executable' || sig.kind === 'bzip2 archive') && !hasControlBytes(head))
      ok = false;
    if (ok) return sig.kind;
  }
  return null;
}

function hasControlBytes(head: Uint8Array): boolean {
  for (let k = 0; k < head.length; k++) {
    const b = head[k];
    if (b < 0x09 || (b > 0x0d && b < 0x20)) return true;
  }
  return false;
}

/** UTF-16 without a BOM: ASCII text shows a zero byte in every other position. */
function sniffUtf16(head: Uint8Array): InputEncoding | null {
  const n = Math.min(head.length, 512) & ~1;
  if (n < 4) return null;
  let evenZero = 0;
  let oddZero = 0;
  for (let k = 0; k < n; k += 2) {
    if (head[k] === 0) evenZero++;
    if (head[k + 1] === 0) oddZero++;
  }
  const half = n / 2;
  if (oddZero >= half * 0.6 && evenZero === 0) return 'utf-16le';
  if (evenZero >= half * 0.6 && oddZero === 0) return 'utf-16be';
  return null;
}

/** Length of an incomplete UTF-8 sequence at the end of `b` (0 when it ends on a boundary). */
function incompleteUtf8Tail(b: Buffer): number {
  const n = b.length;
  let j = n - 1;
  while (j >= 0 && n - j < 4 && (b[j] & 0xc0) === 0x80) j--;
  if (j < 0) return 0;
  const lead = b[j];
  if (lead < 0xc2 || lead > 0xf4) return 0; // not a lead byte any valid sequence starts with
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  return n - j < need ? n - j : 0;
}

/** Offset of the first byte that does not start a valid UTF-8 sequence. */
function firstInvalidUtf8(b: Buffer): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    let len = 1;
    if (c >= 0x80) {
      len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
      if (len === 0 || i + len > b.length || !isUtf8(b.subarray(i, i + len))) return i;
    }
    i += len;
  }
  return b.length;
}

export interface DecoderState {
  /** The decided encoding, or null while every byte seen so far was ASCII (all candidates agree). */
  encoding: InputEncoding | null;
  bom: boolean;
}

/**
 * Streaming decoder. push() returns UTF-8 bytes (possibly empty). When a chunk turns out not to be valid UTF-8
 * after the file was decided to be UTF-8, the valid prefix is returned and `invalid` is set: the caller reports
 * the line, because only it knows how many lines went before.
 */
export class Decoder implements DecoderState {
  encoding: InputEncoding | null;
  bom = false;
  invalid = false;
  private readonly override: boolean;
  private head: Buffer | null = EMPTY;
  private tail: Buffer | null = null;
  private started = false;

  constructor(encoding?: InputEncoding) {
    this.encoding = encoding ?? null;
    this.override = encoding !== undefined;
  }

  push(chunk: Buffer): Buffer {
    if (this.invalid || chunk.length === 0) return EMPTY;
    if (!this.started) {
      // Gather the first bytes so signatures and BOMs are seen whole, however the input was chunked.
      const head = this.head as Buffer;
      const joined = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      if (joined.length < SIGNATURE_BYTES) {
        this.head = joined;
        return EMPTY;
      }
      return this.start(joined);
    }
    return this.decode(chunk, false);
  }

  end(): Buffer {
    if (this.invalid) return EMPTY;
    let out = EMPTY;
    if (!this.started) out = this.start(this.head as Buffer);
    const rest = this.decode(EMPTY, true);
    return rest.length === 0 ? out : out.length === 0 ? rest : Buffer.concat([out, rest]);
  }

  private start(first: Buffer): Buffer {
    this.started = true;
    this.head = null;
    const kind = binarySignature(first);
    if (kind) throw new BinaryFileError(kind);
    let body = first;
    if (first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf) {
      this.bom = true;
      if (!this.override) this.encoding = 'utf-8';
      body = first.subarray(3);
    } else if (first[0] === 0xff && first[1] === 0xfe) {
      this.bom = true;
      if (!this.override) this.encoding = 'utf-16le';
      body = first.subarray(2);
    } else if (first[0] === 0xfe && first[1] === 0xff) {
      this.bom = true;
      if (!this.override) this.encoding = 'utf-16be';
      body = first.subarray(2);
    } else if (!this.override) {
      const u16 = sniffUtf16(first);
      if (u16) this.encoding = u16;
    }
    return this.decode(body, false);
  }

  private decode(chunk: Buffer, final: boolean): Buffer {
    let b = chunk;
    if (this.tail) {
      b = b.length === 0 ? this.tail : Buffer.concat([this.tail, b]);
      this.tail = null;
    }
    let out: Buffer;
    switch (this.encoding) {
      case 'utf-16le':
      case 'utf-16be':
        out = this.decodeUtf16(b, final);
        break;
      case 'windows-1252':
        out = decodeWindows1252(b);
        break;
      case 'iso-8859-1':
        // Only ever chosen by the user: every byte is the code point of the same value.
        out = Buffer.from(b.toString('latin1'), 'utf8');
        break;
      default:
        out = this.decodeUtf8(b, final);
    }
    if (out.length > 0 && out.indexOf(0) !== -1) throw new BinaryFileError('binary');
    return out;
  }

  private decodeUtf8(b: Buffer, final: boolean): Buffer {
    if (this.encoding === null) {
      if (isAscii(b)) return b;
      // Decide on a fixed window from the first non-ASCII byte, so the answer never depends on chunking.
      let first = 0;
      while (b[first] < 0x80) first++;
      if (!final && b.length - first < DECIDE_WINDOW) {
        this.tail = Buffer.from(b.subarray(first));
        return b.subarray(0, first);
      }
      const end = Math.min(b.length, first + DECIDE_WINDOW);
      let window = b.subarray(first, end);
      if (end < b.length || !final) window = window.subarray(0, window.length - incompleteUtf8Tail(window));
      if (!isUtf8(window)) {
        this.encoding = 'windows-1252';
        return decodeWindows1252(b);
      }
      this.encoding = 'utf-8';
    }
    const cut = final ? 0 : incompleteUtf8Tail(b);
    const whole = cut ? b.subarray(0, b.length - cut) : b;
    if (cut) this.tail = Buffer.from(b.subarray(b.length - cut));
    if (isUtf8(whole)) return whole;
    this.invalid = true;
    this.tail = null;
    return whole.subarray(0, firstInvalidUtf8(whole));
  }

  private decodeUtf16(b: Buffer, final: boolean): Buffer {
    let n = b.length & ~1;
    if (!final && n >= 2) {
      // Keep a lone high surrogate for the next chunk.
      const unit = this.encoding === 'utf-16le' ? b[n - 2] | (b[n - 1] << 8) : (b[n - 2] << 8) | b[n - 1];
      if (unit >= 0xd800 && unit <= 0xdbff) n -= 2;
    }
    if (n < b.length && !final) this.tail = Buffer.from(b.subarray(n));
    let units = b.subarray(0, n);
    if (this.encoding === 'utf-16be') units = Buffer.from(units).swap16();
    const text = units.toString('utf16le');
    return Buffer.from(text, 'utf8');
  }
}
