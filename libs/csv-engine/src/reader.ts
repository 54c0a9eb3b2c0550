// The streaming front end shared by inspect, parse and applyMapping: decode → sniff → parse → header.
// Bytes are pushed in; records come out as offsets (RecordView). Only the sniff sample (64 KB) and one
// incomplete record are ever held.
import { Decoder, type InputEncoding } from './encoding';
import { EmptyFileError, EmptyHeaderError, InvalidEncodingError, OptionsError } from './errors';
import { RecordParser, recordStrings, type ParserLimits, type RecordView } from './parser';
import { DELIMITERS, sniff, type Delimiter } from './sniff';

/** How to read an input file. Every field is optional: by default everything is detected. */
export interface ReadOptions extends ParserLimits {
  /** Override the detected encoding. */
  encoding?: InputEncoding;
  /** Override the sniffed delimiter. */
  delimiter?: Delimiter;
  /**
   * 1-based line number of the header row; lines before it are skipped. 0: no header row (as
   * `header: false`). Default: detected, and a file whose first record reads like its rows has none.
   */
  headerRow?: number;
  /** false: no header row, every record is data (headers are named `Column 1…n`). Default true. */
  header?: boolean;
  /** Bytes read before sniffing the delimiter and header. Default 64 KB. */
  sniffBytes?: number;
}

export interface DuplicateHeader {
  /** The name as it appears in the file. */
  name: string;
  /** The name the column is known by from now on, e.g. `Name (2)`. */
  renamedTo: string;
  /** 0-based column index. */
  column: number;
}

/** What was detected about a source file. */
export interface SourceInfo {
  encoding: InputEncoding;
  bom: boolean;
  delimiter: Delimiter;
  /** 1-based line of the header row (0 when `header: false`). */
  headerRow: number;
  /** Lines before the header row (preamble) that were skipped. */
  skippedLines: number;
  /** Column names, unique: duplicates disambiguated as `Name (2)`, blanks named `Column N`. */
  headers: string[];
  duplicateHeaders: DuplicateHeader[];
  /** 0-based indexes of header cells that were blank and got a `Column N` name. */
  blankHeaders: number[];
}

export interface ReaderHandlers {
  onHeader?(info: SourceInfo): void;
  /** Called for every data record; `row` is the 1-based data row number. Return false to stop. */
  onRow(r: RecordView, row: number): boolean | void;
}

const DEFAULT_SNIFF_BYTES = 64 * 1024;

export function validateReadOptions(o: ReadOptions): void {
  if (o.delimiter !== undefined && !DELIMITERS.includes(o.delimiter)) {
    throw new OptionsError(
      `Unsupported delimiter ${JSON.stringify(o.delimiter)}: use comma, semicolon, tab or pipe.`,
    );
  }
  if (o.headerRow !== undefined && (!Number.isInteger(o.headerRow) || o.headerRow < 0)) {
    throw new OptionsError('headerRow must be a line number, 1 or more (0 for a file without a header row).');
  }
  if (o.maxFieldBytes !== undefined && !(o.maxFieldBytes > 0))
    throw new OptionsError('maxFieldBytes must be positive.');
}

export class CsvReader {
  info: SourceInfo | null = null;
  rows = 0;
  private readonly decoder: Decoder;
  private parser: RecordParser | null = null;
  private prefix: Buffer[] = [];
  private prefixLen = 0;
  private headerLine = 1;
  private delimiter: Delimiter = ',';
  private readonly sniffBytes: number;
  private done = false;
  /** No header row: chosen (`header: false`, `headerRow: 0`) or detected. */
  private headerless: boolean;
  /** Columns the rows below the header use (header names past them that are blank are dropped). */
  private bodyColumns = 0;

  constructor(
    private readonly options: ReadOptions,
    private readonly handlers: ReaderHandlers,
  ) {
    validateReadOptions(options);
    this.headerless = options.header === false || options.headerRow === 0;
    this.decoder = new Decoder(options.encoding);
    this.sniffBytes = options.sniffBytes ?? DEFAULT_SNIFF_BYTES;
  }

  /** True once the consumer asked to stop (or the input ended). */
  get stopped(): boolean {
    return this.done || (this.parser?.stopped ?? false);
  }

  /** 1-based line the parser has reached. */
  get line(): number {
    return this.parser?.nextLine ?? 1;
  }

  push(chunk: Buffer | Uint8Array | string): void {
    if (this.stopped) return;
    this.pushDecoded(this.decode(chunk));
  }

  /**
   * The first half of push(): the chunk's bytes as UTF-8, without parsing them. Pass the result (whole or
   * in consecutive pieces) to pushDecoded(). After invalid input, `invalidEncoding` is true.
   */
  decode(chunk: Buffer | Uint8Array | string): Buffer {
    const b =
      typeof chunk === 'string'
        ? Buffer.from(chunk, 'utf8')
        : Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk);
    return this.decoder.push(b);
  }

  /**
   * The second half of push(): parses bytes returned by decode(). `checkEncoding: false` when a later
   * chunk has been decoded already (its encoding error is reported when its own bytes are pushed).
   */
  pushDecoded(b: Buffer, checkEncoding = true): void {
    if (this.stopped) return;
    this.feed(b);
    if (checkEncoding && this.decoder.invalid) this.failEncoding();
  }

  get invalidEncoding(): boolean {
    return this.decoder.invalid;
  }

  /** True once the header is read: what follows is data records. */
  get inBody(): boolean {
    return this.info !== null && this.parser !== null;
  }

  /** True once the header is read and every byte fed so far ended a record. */
  get atRecordStart(): boolean {
    return this.inBody && (this.parser as RecordParser).atRecordStart;
  }

  /**
   * Accounts for data records read elsewhere from the bytes that follow those fed so far (parallel
   * mapping), so row and line numbers go on from them.
   */
  skipRecords(rows: number, lines: number, bytes: number): void {
    this.rows += rows;
    this.parser?.skip(lines, bytes);
  }

  end(): void {
    if (this.done) return;
    if (!this.stopped) {
      this.feed(this.decoder.end());
      if (this.decoder.invalid) this.failEncoding();
      if (!this.parser) this.start(true);
      (this.parser as RecordParser).end();
    }
    this.done = true;
    if (!this.info && !this.parser?.stopped) {
      if (this.headerless) this.emitHeader(null);
      else throw new EmptyFileError();
    }
  }

  private feed(b: Buffer): void {
    if (b.length === 0) return;
    if (this.parser) {
      this.parser.push(b);
      return;
    }
    this.prefix.push(b);
    this.prefixLen += b.length;
    if (this.prefixLen >= this.sniffBytes) this.start(false);
  }

  private start(final: boolean): void {
    const sample = Buffer.concat(this.prefix, this.prefixLen);
    this.prefix = [];
    const s = sniff(sample, final, {
      delimiter: this.options.delimiter,
      headerRow: this.headerless ? 1 : this.options.headerRow,
    });
    this.delimiter = s.delimiter;
    this.headerLine = s.headerLine;
    this.bodyColumns = s.columns;
    if (s.headerLine === 0) this.headerless = true;
    const onRecord = this.headerless
      ? (r: RecordView) => {
          if (!this.info) this.emitHeader(r);
          return this.handlers.onRow(r, ++this.rows);
        }
      : (r: RecordView) => {
          if (this.info) return this.handlers.onRow(r, ++this.rows);
          if (r.line >= this.headerLine) this.emitHeader(r);
          return true;
        };
    this.parser = new RecordParser(s.delimiter.charCodeAt(0), onRecord, this.options);
    this.parser.push(sample);
  }

  private emitHeader(r: RecordView | null): void {
    const headerless = this.headerless;
    const raw = r ? recordStrings(r) : [];
    // A header ending with the delimiter (`Date,Amount,` over rows `x,1`): blank names past the columns
    // the rows use are not columns.
    if (!headerless)
      while (raw.length > this.bodyColumns && raw.length > 1 && raw[raw.length - 1].trim() === '') raw.pop();
    let names: string[];
    const blank: number[] = [];
    if (headerless) {
      names = raw.map((_, k) => `Column ${k + 1}`);
    } else {
      const rr = r as RecordView;
      names = raw.map((h, k) => {
        const t = (k === 0 ? h.replace(/^\uFEFF/, '') : h).trim();
        if (t === '') blank.push(k);
        return t;
      });
      if (blank.length === names.length) throw new EmptyHeaderError(rr.line);
      for (const k of blank) names[k] = `Column ${k + 1}`;
    }
    const duplicates: DuplicateHeader[] = [];
    const seen = new Set<string>();
    const headers = names.map((name, column) => {
      if (!seen.has(name)) {
        seen.add(name);
        return name;
      }
      let k = 2;
      while (seen.has(`${name} (${k})`) || names.includes(`${name} (${k})`)) k++;
      const renamedTo = `${name} (${k})`;
      seen.add(renamedTo);
      duplicates.push({ name, renamedTo, column });
      return renamedTo;
    });
    const headerRow = headerless ? 0 : (r as RecordView).line;
    this.info = {
      encoding: this.decoder.encoding ?? 'utf-8',
      bom: this.decoder.bom,
      delimiter: this.delimiter,
      headerRow,
      skippedLines: headerless ? 0 : headerRow - 1,
      headers,
      duplicateHeaders: duplicates,
      blankHeaders: blank,
    };
    this.handlers.onHeader?.(this.info);
    // From now on every record is data: hand them to onRow without the header checks on the way.
    const handlers = this.handlers;
    this.parser?.setHandler((rec: RecordView) => handlers.onRow(rec, ++this.rows));
  }

  /** The encoding is decided lazily (ASCII-only files are all encodings at once): ask after end(). */
  get encoding(): InputEncoding {
    return this.decoder.encoding ?? 'utf-8';
  }

  get bom(): boolean {
    return this.decoder.bom;
  }

  private failEncoding(): never {
    if (!this.parser) this.start(false);
    const p = this.parser as RecordParser;
    throw new InvalidEncodingError(
      p.nextLine + p.pendingLines(),
      (this.decoder.encoding ?? 'utf-8').toUpperCase(),
    );
  }
}
