// Cheap inspection for the upload endpoint: bytes are pushed through once as they stream into storage;
// nothing but the sniff sample, one incomplete record and the first rows is kept. Throws the typed errors.
import { Transform, type TransformCallback } from 'node:stream';
import { Decoder, encodingReason, type InputEncoding } from './encoding';
import { emptyFrom, RecordParser, recordStrings, type RecordView } from './parser';
import { CsvReader, type DuplicateHeader, type ReadOptions } from './reader';
import type { Delimiter } from './sniff';
import { chunksOf, type CsvInput } from './input';
import { inferColumnTransforms } from './mapping/column-kinds';
import type { Transform as ColumnTransform } from './types';

export interface RaggedRow {
  /** 1-based data row. */
  row: number;
  line: number;
  expected: number;
  found: number;
}

export interface InspectOptions extends ReadOptions {
  /** Data rows returned in `sampleRows`. Default 5. */
  sampleRows?: number;
  /** Ragged rows listed in `raggedSamples` (all are counted). Default 100. */
  maxRaggedSamples?: number;
  /**
   * Records from the top of the file (preamble included) returned in `firstLines`. Default 100: enough to
   * pick a header below a long preamble. Only the first 64 KB are kept for them, so wide records give fewer.
   */
  firstLines?: number;
  /** Data rows whose values decide each column's suggested transform (`columns`). Default 200. */
  inferenceRows?: number;
}

/** A column and the transform its values suggest (null: copy as is). */
export interface InspectedColumn {
  name: string;
  inferred: ColumnTransform | null;
}

/** A record from the top of the file, as read with the chosen encoding and delimiter. */
export interface FirstLine {
  /** 1-based physical line the record starts on (what `headerRow` names). */
  line: number;
  cells: string[];
}

/** Raw bytes kept to show the first lines (header-row picker). */
const FIRST_LINES_BYTES = 64 * 1024;
const DEFAULT_FIRST_LINES = 100;

export interface InspectResult {
  encoding: InputEncoding;
  /** Why that encoding, for people: e.g. 'Read as Windows-1252 because the file is not valid UTF-8.' */
  encodingReason: string;
  bom: boolean;
  delimiter: Delimiter;
  /** 1-based line of the header row; 0: no header row (every record is data, columns `Column 1…N`). */
  headerRow: number;
  /**
   * The header row detection picks with this encoding and delimiter (0: none). The same as `headerRow`
   * unless one was chosen; undefined when the top of the file cannot be read (or `firstLines: 0`).
   */
  detectedHeaderRow?: number;
  skippedLines: number;
  headers: string[];
  duplicateHeaders: DuplicateHeader[];
  blankHeaders: number[];
  /** Data rows (blank lines not counted). */
  rowCount: number;
  /** The first data rows as strings, padded/truncated to the header width. */
  sampleRows: string[][];
  raggedRows: number;
  raggedSamples: RaggedRow[];
  /** Bytes pushed. */
  bytes: number;
  /** The first records of the file, blank lines skipped, from line 1 (for choosing the header row). */
  firstLines: FirstLine[];
  /** The first line ending in the file ('\r\n' when none is found before the end). */
  lineEnding: '\r\n' | '\n';
  columns: InspectedColumn[];
}

/** Push-based inspector: `push(chunk)` as bytes arrive, `end()` for the result. */
export class CsvInspector {
  private readonly reader: CsvReader;
  private readonly sample: string[][] = [];
  private readonly sampleSize: number;
  private readonly inferenceRows: number;
  private lineEnding: '\r\n' | '\n' | null = null;
  /** The last two bytes pushed, for a line ending split between chunks. */
  private tail = [-1, -1];
  private readonly maxRagged: number;
  private readonly ragged: RaggedRow[] = [];
  private raggedCount = 0;
  private width = 0;
  private bytes = 0;
  private result: InspectResult | null = null;
  private readonly encodingChosen: boolean;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private readonly firstLineCount: number;
  private readonly headerChosen: boolean;

  constructor(options: InspectOptions = {}) {
    this.encodingChosen = options.encoding !== undefined;
    this.firstLineCount = options.firstLines ?? DEFAULT_FIRST_LINES;
    this.headerChosen = options.headerRow !== undefined || options.header === false;
    this.sampleSize = options.sampleRows ?? 5;
    this.inferenceRows = Math.max(this.sampleSize, options.inferenceRows ?? 200);
    this.maxRagged = options.maxRaggedSamples ?? 100;
    this.reader = new CsvReader(options, {
      onHeader: (info) => {
        this.width = info.headers.length;
      },
      onRow: (r, row) => this.onRow(r, row),
    });
  }

  private onRow(r: RecordView, row: number): void {
    if (r.count !== this.width && (r.count < this.width || !emptyFrom(r, this.width))) {
      this.raggedCount++;
      if (this.ragged.length < this.maxRagged)
        this.ragged.push({ row, line: r.line, expected: this.width, found: r.count });
    }
    if (this.sample.length < this.inferenceRows) {
      const cells = recordStrings(r);
      cells.length = this.width;
      this.sample.push(Array.from(cells, (c) => c ?? ''));
    }
  }

  push(chunk: Buffer | Uint8Array | string): void {
    this.bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (this.headBytes < FIRST_LINES_BYTES && this.firstLineCount > 0) {
      const b = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
      const part = b.subarray(0, FIRST_LINES_BYTES - this.headBytes);
      this.head.push(part);
      this.headBytes += part.length;
    }
    if (this.lineEnding === null) this.findLineEnding(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    this.reader.push(chunk);
  }

  /** The first LF decides: CR before it (or CR 00 / 00 CR in UTF-16) means CRLF. */
  private findLineEnding(b: Uint8Array): void {
    const at = b.indexOf(0x0a);
    const byteAt = (i: number): number => (i >= 0 ? b[i] : this.tail[2 + i]);
    if (at < 0) {
      if (b.length >= 2) this.tail = [b[b.length - 2], b[b.length - 1]];
      else if (b.length === 1) this.tail = [this.tail[1], b[0]];
      return;
    }
    const p1 = byteAt(at - 1);
    const p2 = byteAt(at - 2);
    this.lineEnding = p1 === 0x0d || (p1 === 0 && p2 === 0x0d) ? '\r\n' : '\n';
  }

  end(): InspectResult {
    if (this.result) return this.result;
    this.reader.end();
    const info = this.reader.info;
    if (!info) throw new Error('unreachable: reader ended without a header');
    this.result = {
      encoding: this.reader.encoding,
      encodingReason: encodingReason(this.reader.encoding, this.reader.bom, this.encodingChosen),
      bom: this.reader.bom,
      delimiter: info.delimiter,
      headerRow: info.headerRow,
      detectedHeaderRow: this.headerChosen ? this.detectHeaderRow(info.delimiter) : info.headerRow,
      skippedLines: info.skippedLines,
      headers: info.headers,
      duplicateHeaders: info.duplicateHeaders,
      blankHeaders: info.blankHeaders,
      rowCount: this.reader.rows,
      sampleRows: this.sample.slice(0, this.sampleSize),
      raggedRows: this.raggedCount,
      raggedSamples: this.ragged,
      bytes: this.bytes,
      firstLines: this.firstLines(info.delimiter),
      lineEnding: this.lineEnding ?? '\r\n',
      columns: inferColumnTransforms(info.headers, this.sample, { delimiter: info.delimiter }).map(
        (inferred, k) => ({
          name: info.headers[k],
          inferred,
        }),
      ),
    };
    return this.result;
  }

  /**
   * With a header row chosen, what detection would have picked: the kept head read again by a reader
   * left to detect it (same encoding and delimiter), stopped at its first data record.
   */
  private detectHeaderRow(delimiter: Delimiter): number | undefined {
    if (this.firstLineCount === 0) return undefined;
    const reader = new CsvReader(
      // The whole head is pushed at once, so the reader's sample is all of it (sniffBytes 1).
      { encoding: this.reader.encoding, delimiter, sniffBytes: 1 },
      { onRow: () => false },
    );
    try {
      reader.push(Buffer.concat(this.head));
      if (this.headBytes < FIRST_LINES_BYTES) reader.end();
    } catch {
      return undefined; // the real read reports broken input
    }
    return reader.info?.headerRow;
  }

  /** Reads the kept head again with what was decided (records cut at the 64 KB edge are left out). */
  private firstLines(delimiter: Delimiter): FirstLine[] {
    const out: FirstLine[] = [];
    if (this.firstLineCount === 0) return out;
    const decoder = new Decoder(this.reader.encoding);
    const text = Buffer.concat([decoder.push(Buffer.concat(this.head)), decoder.end()]);
    const complete = this.headBytes < FIRST_LINES_BYTES;
    const parser = new RecordParser(delimiter.charCodeAt(0), (r: RecordView) => {
      out.push({
        line: r.line,
        cells: recordStrings(r).map((c, k) => (k === 0 && r.line === 1 ? c.replace(/^\uFEFF/, '') : c)),
      });
      return out.length < this.firstLineCount;
    });
    try {
      parser.push(text);
      if (complete) parser.end();
    } catch {
      // The real read reports broken input; the preview shows what came before it.
    }
    return out;
  }
}

/**
 * A pass-through stream that inspects the bytes flowing through it (e.g. request → inspector → storage).
 * `result` resolves after the last byte; a typed error destroys the stream and rejects `result`.
 */
export function createInspectStream(options: InspectOptions = {}): {
  stream: Transform;
  result: Promise<InspectResult>;
} {
  const inspector = new CsvInspector(options);
  let resolve!: (r: InspectResult) => void;
  let reject!: (e: unknown) => void;
  const result = new Promise<InspectResult>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  result.catch(() => undefined);
  const stream = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
      try {
        inspector.push(chunk);
        cb(null, chunk);
      } catch (e) {
        reject(e);
        cb(e as Error);
      }
    },
    flush(cb: TransformCallback) {
      try {
        resolve(inspector.end());
        cb();
      } catch (e) {
        reject(e);
        cb(e as Error);
      }
    },
  });
  stream.on('close', () => reject(new Error('The upload ended before the file was complete.')));
  return { stream, result };
}

/** Inspects a whole input (stream, chunks or bytes). */
export async function inspect(input: CsvInput, options: InspectOptions = {}): Promise<InspectResult> {
  const inspector = new CsvInspector(options);
  const it = chunksOf(input);
  try {
    for (;;) {
      const next = await it.next();
      if (next.done) break;
      inspector.push(next.value);
    }
  } finally {
    await it.return?.();
  }
  return inspector.end();
}
