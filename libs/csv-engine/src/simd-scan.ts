// The parser's SIMD pre-pass (scan.wat): one WebAssembly instance per thread, shared by every parser in it.
// It lists where the fields of a buffer end, so parser.ts reads one offset per field instead of testing
// each byte in JavaScript. Where WebAssembly SIMD is missing, or a buffer is too large or has quotes
// in odd places, the parser simply reads the bytes itself.
import { SCAN_WASM_BASE64 } from './scan-wasm';

// Node has WebAssembly, but TypeScript declares it only in the DOM library, which server code does not load:
// the little used here, declared for this module alone.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
  Memory: new (limits: { initial: number; maximum: number }) => WasmMemory;
};

/**
 * Largest buffer scanned at once (the parser cuts larger chunks into 1 MB pieces; a record held back across
 * pieces can make one larger).
 */
export const MAX_SCAN_BYTES = 4 * 1024 * 1024;
/** Bit 31 of an entry in `ends`: the separator is a line break (LF or CR). */
export const LINE_END = 1 << 31;
/** The three words of `marks` for each 32 bytes, in order (see ScanResult.marks). */
export const MARK_NEEDS_QUOTE = 0;
export const MARK_ESCAPED = 1;
export const MARK_LINES = 2;
const PAGE = 65536;

/** Where the parts of a scan of `len` (padded) bytes sit in the module's memory, and how much it needs. */
function layout(len: number): { marksAt: number; endsAt: number; size: number } {
  const marksAt = len;
  const endsAt = marksAt + (len >>> 5) * 12;
  // Slot 0 is the caller's; then one offset per byte at most, plus the twelve a step may write past the
  // last one, and the end marker.
  return { marksAt, endsAt, size: endsAt + (len + 14) * 4 };
}

type ScanFn = (src: number, len: number, delim: number, marks: number, ends: number) => number;

export interface ScanResult {
  /**
   * From index 1: the offsets of the delimiters, LFs and CRs outside quotes, in order, line breaks with
   * LINE_END set; then an offset past the data, with LINE_END. (The padding after the data is delimiters: a
   * field that runs to the end of the data ends at its length.) Index 0 is free for the caller.
   */
  ends: Int32Array;
  /**
   * For the 32 bytes from 32·w: words 3w, 3w + 1 and 3w + 2 have bit i set when byte 32·w + i is a separator
   * in `ends` and the field it ends holds a delimiter or line break inside quotes / holds a "" / (a line
   * break) the record it ends has a line break inside quotes.
   */
  marks: Int32Array;
}

class SimdScanner {
  private readonly fn: ScanFn;
  private readonly buffer: ArrayBuffer;
  private readonly bytes: Uint8Array;
  /** A parser's record handler may feed another parser: that one must not overwrite this scan's result. */
  busy = false;

  constructor(fn: ScanFn, memory: WasmMemory) {
    this.fn = fn;
    this.buffer = memory.buffer;
    this.bytes = new Uint8Array(this.buffer);
  }

  /**
   * Field ends of buf[0, n), or null when its quotes do not follow RFC 4180 (the list would be wrong then).
   * The data is taken to start at a record start, and n must be at most MAX_SCAN_BYTES.
   */
  scan(buf: Uint8Array, n: number, delim: number): ScanResult | null {
    // Whole steps of 64 bytes, with at least one byte of padding so the end of the data is marked.
    const len = ((n >>> 6) + 1) << 6;
    const { marksAt, endsAt } = layout(len);
    const bytes = this.bytes;
    bytes.set(n === buf.length ? buf : buf.subarray(0, n));
    bytes.fill(delim, n, len);
    const count = this.fn(0, len, delim, marksAt, endsAt + 4);
    if (count < 0) return null;
    return {
      ends: new Int32Array(this.buffer, endsAt, count + 2),
      marks: new Int32Array(this.buffer, marksAt, (len >>> 5) * 3),
    };
  }
}

let scanner: SimdScanner | null | undefined;

/** This thread's scanner, or null where WebAssembly SIMD is not available. */
export function simdScanner(): SimdScanner | null {
  if (scanner === undefined) {
    try {
      // Sized once for the largest scan and never grown: growing would detach the old ArrayBuffer, and once
      // any ArrayBuffer has been detached, V8 checks for detachment on every typed-array access in the
      // process (measured: ~10 % slower parsing).
      const pages = Math.ceil(layout(MAX_SCAN_BYTES + 64).size / PAGE);
      const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
      const module = new WebAssembly.Module(Buffer.from(SCAN_WASM_BASE64, 'base64'));
      const instance = new WebAssembly.Instance(module, { scan: { memory } });
      scanner = new SimdScanner(instance.exports.scan as ScanFn, memory);
    } catch {
      scanner = null;
    }
  }
  return scanner;
}

export type { SimdScanner };
