// The ZIP layer of the workbook reader. A stored upload can be opened as often as needed but only read
// front to back, so the container is read in passes: the tail pass keeps the last bytes and parses the
// central directory (exact offsets and sizes, no guessing at data descriptors); each later pass streams
// the file again, skips what it does not need without inflating it, and inflates only the entries asked
// for, in small slices, counting every unpacked byte against the caps. Nothing holds more than one slice.
import { createInflateRaw, type ZlibOptions } from 'node:zlib';
import { chunksOf, type CsvInput } from '../input';
import { InvalidWorkbookError, UnsupportedWorkbookError, WorkbookTooLargeError } from '../errors';

/** Opens the stored file again from its first byte (the reader makes several passes). */
export type FileOpener = () => CsvInput | Promise<CsvInput>;

export interface WorkbookLimits {
  /** Unpacked bytes all entries together may declare. Default 1 GiB. */
  maxTotalBytes?: number;
  /** Entries in the container. Default 10,000. */
  maxEntries?: number;
  /** Unpacked bytes of one entry. Default 1 GiB. */
  maxEntryBytes?: number;
}

export const DEFAULT_WORKBOOK_LIMITS: Required<WorkbookLimits> = {
  maxTotalBytes: 1024 * 1024 * 1024,
  maxEntries: 10_000,
  maxEntryBytes: 1024 * 1024 * 1024,
};

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  /** Offset of the local file header. */
  offset: number;
}

/** Receives an entry's unpacked bytes; may throw to stop the pass. */
export interface EntrySink {
  data(chunk: Uint8Array): void;
  end(): void;
}

/** Central directory entries are ~46 bytes plus the name: 4 MB holds the largest directory allowed. */
const MAX_TAIL = 4 * 1024 * 1024;
const EOCD = 0x06054b50;
const CEN = 0x02014b50;
const LOC = 0x04034b50;

function notWorkbook(): UnsupportedWorkbookError {
  return new UnsupportedWorkbookError(
    'This file is a ZIP archive but not an Excel workbook (.xlsx). Upload a .xlsx workbook or a CSV file.',
  );
}

function broken(what: string): InvalidWorkbookError {
  return new InvalidWorkbookError(
    `The workbook is damaged (${what}). Open it in Excel, save it again as .xlsx (or CSV) and upload that.`,
  );
}

/** Pass 1: the central directory, checked against the caps before anything is unpacked. */
export async function readDirectory(open: FileOpener, limits: WorkbookLimits = {}): Promise<ZipEntry[]> {
  const lim = { ...DEFAULT_WORKBOOK_LIMITS, ...limits };
  const chunks: Buffer[] = [];
  let kept = 0;
  let total = 0;
  const it = chunksOf(await open());
  try {
    for (;;) {
      const next = await it.next();
      if (next.done) break;
      const c = toBuffer(next.value);
      total += c.length;
      chunks.push(c);
      kept += c.length;
      while (chunks.length > 1 && kept - chunks[0].length >= MAX_TAIL)
        kept -= (chunks.shift() as Buffer).length;
    }
  } finally {
    await it.return?.();
  }
  const tail = Buffer.concat(chunks, kept);
  const tailStart = total - tail.length;
  let at = -1;
  for (let i = tail.length - 22; i >= Math.max(0, tail.length - 22 - 65535); i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) throw notWorkbook();
  const count = tail.readUInt16LE(at + 10);
  const cdSize = tail.readUInt32LE(at + 12);
  const cdOffset = tail.readUInt32LE(at + 16);
  if (count === 0xffff || cdOffset === 0xffffffff) {
    throw new WorkbookTooLargeError(
      'The workbook uses the ZIP64 format for very large files. Save the sheet as CSV and upload that.',
    );
  }
  if (count > lim.maxEntries) {
    throw new WorkbookTooLargeError(
      `The workbook holds ${count} parts; at most ${lim.maxEntries} are read. Save the sheet as CSV and upload that.`,
    );
  }
  let p = cdOffset - tailStart;
  if (p < 0 || p + cdSize > tail.length) throw broken('its directory is out of place');
  const entries: ZipEntry[] = [];
  let declared = 0;
  for (let k = 0; k < count; k++) {
    if (p + 46 > tail.length || tail.readUInt32LE(p) !== CEN) throw broken('its directory is cut short');
    const flags = tail.readUInt16LE(p + 8);
    const method = tail.readUInt16LE(p + 10);
    const compressedSize = tail.readUInt32LE(p + 20);
    const size = tail.readUInt32LE(p + 24);
    const nameLen = tail.readUInt16LE(p + 28);
    const extraLen = tail.readUInt16LE(p + 30);
    const commentLen = tail.readUInt16LE(p + 32);
    const offset = tail.readUInt32LE(p + 42);
    const name = tail.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    if (flags & 1) {
      throw new UnsupportedWorkbookError(
        'The workbook is password-protected. Remove the password in Excel and save it as .xlsx, or save it as CSV, then upload it again.',
      );
    }
    if (size > lim.maxEntryBytes) {
      throw new WorkbookTooLargeError(
        `The workbook part "${name}" unpacks to ${mb(size)}, more than the ${mb(lim.maxEntryBytes)} one part may hold. Save the sheet as CSV and upload that.`,
      );
    }
    declared += size;
    if (declared > lim.maxTotalBytes) {
      throw new WorkbookTooLargeError(
        `The workbook unpacks to more than ${mb(lim.maxTotalBytes)}, the most your plan reads from one file. Save the sheet as CSV and upload that.`,
      );
    }
    entries.push({ name, method, compressedSize, size, offset });
  }
  return entries;
}

/**
 * Inflates one entry with the platform's zlib, as a stream read in 256 KB pieces, each handed to `onData`
 * as it is read, so a bomb is stopped by the caller's count within one piece of its limit. zlib inflates
 * on the thread pool while `onData` works on the piece before (at most 1 MB wait unread), so unpacking
 * and reading overlap on two cores. Every piece costs the main thread a round of zlib's stream code:
 * 64 KB pieces (7,000 on bench:xlsx's sheet) cost more CPU than 256 KB ones. Errors thrown by `onData`
 * stop the stream and are raised by write() / end().
 */
class EntryInflater {
  // highWaterMark is a stream option zlib passes on (its typings list zlib's own options only).
  private readonly z = createInflateRaw({ chunkSize: 256 * 1024, highWaterMark: 1024 * 1024 } as ZlibOptions);
  private error: unknown = null;
  private wake: (() => void) | null = null;

  constructor(private readonly onData: (d: Buffer) => void) {
    const poke = () => this.poke();
    this.z.on('readable', poke);
    this.z.on('close', poke);
    this.z.on('error', (e) => {
      this.error ??= e;
      poke();
    });
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** Inflates `b`, handing on its output; resolves once zlib has taken all of it. */
  async write(b: Buffer): Promise<void> {
    let taken = false;
    this.z.write(b, () => {
      taken = true;
      this.poke();
    });
    await this.pump(() => taken);
  }

  async end(): Promise<void> {
    let ended = false;
    this.z.once('end', () => {
      ended = true;
      this.poke();
    });
    this.z.end();
    await this.pump(() => ended);
  }

  /** Reads what zlib has inflated, waiting for more, until `done()` (or an error). */
  private async pump(done: () => boolean): Promise<void> {
    for (;;) {
      let piece: Buffer | null;
      while (!this.error && (piece = this.z.read() as Buffer | null) !== null) {
        try {
          this.onData(piece);
        } catch (e) {
          this.error = e;
          this.z.destroy();
        }
      }
      if (this.error || done() || this.z.destroyed) break;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    this.raise();
  }

  destroy(): void {
    this.z.destroy();
  }

  private raise(): void {
    const e = this.error;
    if (!e) return;
    if (e instanceof Error && /^Z_|^ERR_ZLIB/.test(String((e as { code?: unknown }).code ?? ''))) {
      throw broken('a part cannot be unpacked');
    }
    throw e;
  }
}

/**
 * One pass over the file: every entry with a sink gets its unpacked bytes, in file order. The generator
 * yields after each input chunk (the caller passes on the output it produced, keeping memory flat).
 */
export async function* readEntries(open: FileOpener, sinks: Map<ZipEntry, EntrySink>): AsyncGenerator<void> {
  const todo = [...sinks.keys()].sort((a, b) => a.offset - b.offset);
  if (todo.length === 0) return;
  let pos = 0; // file offset of `buf[0]`
  let buf: Buffer = Buffer.alloc(0);
  let k = 0;
  let entry: ZipEntry | null = null;
  let left = 0; // compressed bytes of `entry` still to come
  let out = 0;
  let inflater: EntryInflater | null = null;
  let sink: EntrySink | null = null;

  const emit = (data: Uint8Array) => {
    const e = entry as ZipEntry;
    out += data.length;
    // Never more than the directory declared (which the caps already checked): a lying bomb stops here.
    if (out > e.size) throw broken(`part "${e.name}" unpacks to more than its directory says`);
    if (data.length > 0) (sink as EntrySink).data(data);
  };
  const finish = async () => {
    const e = entry as ZipEntry;
    if (inflater) await inflater.end();
    if (out !== e.size) throw broken(`part "${e.name}" is not the size its directory says`);
    (sink as EntrySink).end();
    entry = null;
    inflater = null;
    k++;
  };

  const it = chunksOf(await open());
  try {
    for (;;) {
      const next = await it.next();
      if (next.done) break;
      buf = buf.length === 0 ? toBuffer(next.value) : Buffer.concat([buf, toBuffer(next.value)]);
      for (;;) {
        if (k >= todo.length) break;
        if (!entry) {
          const e = todo[k];
          const skip = e.offset - pos;
          if (skip < 0) throw broken('its parts overlap');
          if (skip >= buf.length) {
            pos += buf.length;
            buf = Buffer.alloc(0);
            break;
          }
          if (skip > 0) {
            buf = buf.subarray(skip);
            pos += skip;
          }
          if (buf.length < 30) break;
          if (buf.readUInt32LE(0) !== LOC) throw broken(`part "${e.name}" is missing`);
          const head = 30 + buf.readUInt16LE(26) + buf.readUInt16LE(28);
          if (buf.length < head) break;
          buf = buf.subarray(head);
          pos += head;
          entry = e;
          left = e.compressedSize;
          out = 0;
          sink = sinks.get(e) as EntrySink;
          if (e.method === 8) inflater = new EntryInflater(emit);
          else if (e.method !== 0) throw broken(`part "${e.name}" uses an unknown compression`);
          if (left === 0) {
            await finish();
            continue;
          }
        }
        if (buf.length === 0) break;
        const n = Math.min(left, buf.length);
        const piece = buf.subarray(0, n);
        if (inflater) {
          await inflater.write(piece);
        } else {
          for (let s = 0; s < n; s += 64 * 1024) emit(piece.subarray(s, Math.min(n, s + 64 * 1024)));
        }
        buf = buf.subarray(n);
        pos += n;
        left -= n;
        if (left === 0) await finish();
        else break;
      }
      yield;
      if (k >= todo.length) break;
    }
  } finally {
    (inflater as EntryInflater | null)?.destroy();
    await it.return?.();
  }
  if (k < todo.length) throw broken('the file ends early');
}

function toBuffer(c: Buffer | Uint8Array | string): Buffer {
  return typeof c === 'string' ? Buffer.from(c, 'utf8') : Buffer.isBuffer(c) ? c : Buffer.from(c);
}

function mb(n: number): string {
  return `${Math.round(n / (1024 * 1024))} MB`;
}
