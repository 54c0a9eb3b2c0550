// applyMapping: streams a data file through the mapping contract (ARCHITECTURE §4) into a CSV shaped like
// the template. Fields are copied as bytes from the parser's buffer into a reused output buffer; quoted
// fields that still need quotes are copied verbatim; dates and amounts are rewritten on bytes.
import { Readable } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import { encodeWindows1252 } from './encoding';
import { MappingError, OptionsError } from './errors';
import {
  DateGroups,
  compileOutput,
  groupsToDate,
  isValidPattern,
  parseDateWithMonthName,
  patternOrder,
  readDate10,
  readGroups,
  voteDate,
  writeDate,
  type DateOrder,
  type Ymd,
} from './dates';
import {
  DecimalSum,
  NumberScratch,
  parseNumberBytes,
  parseSimpleNumber,
  recomputeValue,
  voteDecimal,
  writeNumber,
  type NumberMode,
} from './numbers';
import {
  ParallelMapper,
  type BlockStats,
  type FromWorker,
  type Staged,
  type ToWorker,
  type WorkerInit,
} from './parallel';
import {
  CR,
  F_MALFORMED,
  F_PLAIN,
  F_QUOTED,
  LF,
  QUOTE,
  RecordParser,
  unescapeField,
  type ParserLimits,
  type RecordView,
} from './parser';
import { CsvReader, type SourceInfo } from './reader';
import type {
  ApplyOptions,
  ApplyStats,
  ColumnInference,
  ControlTotal,
  MappingPair,
  Transform,
} from './types';
import { ByteSink, isNumberOrPhone, writeCell, writeStringCell } from './writer';

/** Anything the engine can read: a Node stream, an (async) iterable of chunks, or the bytes themselves. */
export type CsvInput =
  | Readable
  | AsyncIterable<Buffer | Uint8Array | string>
  | Iterable<Buffer | Uint8Array | string>
  | Buffer
  | Uint8Array
  | string;

export interface ApplyResult {
  /** The mapped CSV bytes. Errors (typed CsvEngineError) are emitted on this stream and reject `stats`. */
  output: Readable;
  /** Resolves when the output has been fully produced. */
  stats: Promise<ApplyStats>;
}

const OP_EMPTY = 0;
const OP_COPY = 1;
const OP_CONST = 2;
const OP_DATE = 3;
const OP_NUMBER = 4;
const OP_BOOL = 5;
const OP_DEBIT_CREDIT = 6;
const OP_TRIM = 7;
const OP_UPPER = 8;
const OP_LOWER = 9;

// Module-level copies of the field flags for the row code: uses of imported bindings compile to
// property loads on the parser module, which V8 wants to have seen run before it optimises them.
const PLAIN = F_PLAIN;
const QUOTED = F_QUOTED;
const MALFORMED = F_MALFORMED;

const FLUSH_BYTES = 512 * 1024;
const FIRST_FLUSH_BYTES = 16 * 1024;
const DEFAULT_INFERENCE_ROWS = 10_000;
const MAX_PROFILE_BYTES = 16 * 1024 * 1024;

const TRUE_WORDS = new Set([
  'yes',
  'y',
  'true',
  't',
  '1',
  'on',
  'ja',
  'j',
  'oui',
  'si',
  'sí',
  'x',
  '✓',
  '✔',
  'wahr',
  'vrai',
  'checked',
  'enabled',
  'active',
]);
const FALSE_WORDS = new Set([
  'no',
  'n',
  'false',
  'f',
  '0',
  'off',
  'nein',
  'non',
  'falsch',
  'faux',
  'unchecked',
  'disabled',
  'inactive',
  '-',
]);

interface Op {
  kind: number;
  column: string;
  src: number;
  src2: number;
  required: boolean;
  // date
  order: DateOrder;
  widths: number[] | null;
  parts: Int32Array;
  dateNeedsCell: boolean;
  // numbers
  mode: NumberMode;
  dec: number;
  dec2: number;
  decimals: number;
  parentheses: boolean;
  sign: number;
  total: ControlTotal | null;
  srcSum: DecimalSum | null;
  outSum: DecimalSum | null;
  // constant / boolean
  bytes: Buffer;
  trueBytes: string;
  falseBytes: string;
}

function newOp(column: string): Op {
  return {
    kind: OP_EMPTY,
    column,
    src: -1,
    src2: -1,
    required: false,
    order: 'MDY',
    widths: null,
    parts: new Int32Array(0),
    dateNeedsCell: false,
    mode: 'number',
    dec: 0x2e,
    dec2: 0x2e,
    decimals: -1,
    parentheses: false,
    sign: 1,
    total: null,
    srcSum: null,
    outSum: null,
    bytes: Buffer.alloc(0),
    trueBytes: '',
    falseBytes: '',
  };
}

function checkDecimals(d: number | undefined, column: string): void {
  if (d !== undefined && (!Number.isInteger(d) || d < 0 || d > 10)) {
    throw new MappingError(`Decimals for "${column}" must be a whole number from 0 to 10.`);
  }
}

/** Checks what can be checked before the data headers are known. */
export function validateMappings(templateHeaders: readonly string[], mappings: readonly MappingPair[]): void {
  const template = new Set(templateHeaders);
  const seenTemplate = new Set<string>();
  for (const m of mappings) {
    if (!template.has(m.templateColumn)) {
      throw new MappingError(`"${m.templateColumn}" is not a column of the template.`);
    }
    if (seenTemplate.has(m.templateColumn)) {
      throw new MappingError(`Template column "${m.templateColumn}" is mapped more than once.`);
    }
    seenTemplate.add(m.templateColumn);
    const t = m.transform;
    if (!t) continue;
    switch (t.kind) {
      case 'date':
        if (typeof t.output !== 'string' || !isValidPattern(t.output)) {
          throw new MappingError(
            `The date output pattern for "${m.templateColumn}" must use YYYY, YY, MM, M, DD or D.`,
          );
        }
        // The mapping arrives as JSON: anything but a text pattern (a number, an object) is a bad request.
        if (
          t.input !== undefined &&
          (typeof t.input !== 'string' || (t.input !== 'auto' && !patternOrder(t.input)))
        ) {
          throw new MappingError(
            `The date input pattern for "${m.templateColumn}" must hold a day, a month and a year, e.g. DD/MM/YYYY.`,
          );
        }
        break;
      case 'number':
      case 'amount':
      case 'debitCredit':
        checkDecimals(t.decimals, m.templateColumn);
        break;
      case 'boolean':
        if (
          !Array.isArray(t.output) ||
          t.output.length !== 2 ||
          t.output.some((s) => typeof s !== 'string')
        ) {
          throw new MappingError(
            `The boolean output for "${m.templateColumn}" must be two texts, e.g. ["Yes", "No"].`,
          );
        }
        break;
      case 'constant':
        if (typeof t.value !== 'string')
          throw new MappingError(`The constant for "${m.templateColumn}" must be text.`);
        break;
      case 'trim':
      case 'upper':
      case 'lower':
        break;
      default:
        throw new MappingError(
          `Unknown transform "${(t as { kind: string }).kind}" for "${m.templateColumn}".`,
        );
    }
  }
}

function validateApplyOptions(o: ApplyOptions): void {
  if (o.maxRows !== undefined && (!Number.isInteger(o.maxRows) || o.maxRows < 0)) {
    throw new OptionsError('maxRows must be a whole number, 0 or more.');
  }
  if (o.delimiter !== undefined && ![',', ';', '\t', '|'].includes(o.delimiter)) {
    throw new OptionsError('The output delimiter must be comma, semicolon, tab or pipe.');
  }
  if (o.lineEnding !== undefined && o.lineEnding !== '\r\n' && o.lineEnding !== '\n') {
    throw new OptionsError('lineEnding must be "\\r\\n" or "\\n".');
  }
  if (o.encoding !== undefined && o.encoding !== 'utf-8' && o.encoding !== 'windows-1252') {
    throw new OptionsError('The output encoding must be utf-8 or windows-1252.');
  }
  if (o.threads !== undefined && (!Number.isInteger(o.threads) || o.threads < 1)) {
    throw new OptionsError('threads must be a whole number, 1 or more.');
  }
}

/** Which data columns need a sample before output starts, and why. */
interface ProfileColumn {
  src: number;
  date: boolean;
  decimal: boolean;
  dmy: number;
  mdy: number;
  ymd: number;
  ambiguousDates: number;
  comma: number;
  point: number;
  ambiguousDecimals: number;
}

interface Decided {
  dateOrder?: DateOrder;
  decimal?: number;
  fromLocale: boolean;
  mixedDates: boolean;
  ambiguous: boolean;
}

function needsDateSample(t: Transform | undefined): boolean {
  return t?.kind === 'date' && (t.input === undefined || t.input === 'auto');
}
function needsDecimalSample(t: Transform | undefined): boolean {
  if (!t) return false;
  if (t.kind === 'debitCredit') return true;
  if (t.kind === 'amount' || t.kind === 'number')
    return t.decimalSeparator === undefined || t.decimalSeparator === 'auto';
  return false;
}

export function contentOf(r: RecordView, k: number): { buf: Buffer; s: number; e: number } {
  const f = r.flagsOf(k);
  const s = r.ends[r.base + k - 1] + 1;
  const e = r.ends[r.base + k];
  if (f === F_PLAIN) return { buf: r.buf, s, e };
  if ((f & 3) === F_QUOTED) return { buf: r.buf, s: s + 1, e: e - 1 };
  const b = unescapeField(r.buf, s, e);
  return { buf: b, s: 0, e: b.length };
}

class MappingRun {
  readonly stats: ApplyStats;
  readonly sink = new ByteSink(FLUSH_BYTES + 64 * 1024);
  readonly chunks: Buffer[] = [];
  private ops: Op[] = [];
  private readonly delim: number;
  private readonly crlf: boolean;
  private readonly protect: boolean;
  private readonly maxWarnings: number;
  private readonly maxRows: number;
  private readonly required: Set<string>;
  private readonly num = new NumberScratch();
  private readonly num2 = new NumberScratch();
  private readonly groups = new DateGroups();
  private readonly ymd: Ymd = { y: 0, m: 0, d: 0 };
  private expected = 0;
  private sameDelim = false;
  private headerWritten = false;
  /** The columns sampled for inference (startProfile). */
  private profileColumns: ProfileColumn[] = [];
  private decided = new Map<number, Decided>();
  private profileRows = 0;
  private readonly inferenceRows: number;
  private readonly cp1252: boolean;
  private info: SourceInfo | null = null;

  constructor(
    private readonly templateHeaders: readonly string[],
    private readonly mappings: readonly MappingPair[],
    private readonly options: ApplyOptions,
  ) {
    this.delim = (options.delimiter ?? ',').charCodeAt(0);
    this.crlf = (options.lineEnding ?? '\r\n') === '\r\n';
    this.protect = options.formulaProtection ?? true;
    this.maxWarnings = options.maxWarnings ?? 100;
    this.maxRows = options.maxRows ?? Infinity;
    this.required = new Set(options.required ?? []);
    this.inferenceRows = Math.max(1, options.inferenceRows ?? DEFAULT_INFERENCE_ROWS);
    this.cp1252 = options.encoding === 'windows-1252';
    this.stats = {
      rowsIn: 0,
      rowsOut: 0,
      truncated: false,
      warnings: [],
      warningCount: 0,
      controlTotals: [],
      requiredMissing: 0,
      raggedRows: 0,
      unmappableCharacters: 0,
      inferred: [],
      source: null as unknown as SourceInfo,
    };
  }

  get needsProfile(): boolean {
    return this.mappings.some((m) => needsDateSample(m.transform) || needsDecimalSample(m.transform));
  }

  warn(row: number, column: string, value: string, reason: string): void {
    this.stats.warningCount++;
    if (this.stats.warnings.length < this.maxWarnings)
      this.stats.warnings.push({ row, column, value, reason });
  }

  private index(info: SourceInfo, name: string, template: string): number {
    const k = info.headers.indexOf(name);
    if (k < 0) {
      throw new MappingError(`"${name}" (mapped to "${template}") is not a column of the data file.`);
    }
    return k;
  }

  // ---- profiling (column-level inference) ----

  startProfile(info: SourceInfo): void {
    const cols = new Map<number, ProfileColumn>();
    const get = (src: number): ProfileColumn => {
      let c = cols.get(src);
      if (!c) {
        c = {
          src,
          date: false,
          decimal: false,
          dmy: 0,
          mdy: 0,
          ymd: 0,
          ambiguousDates: 0,
          comma: 0,
          point: 0,
          ambiguousDecimals: 0,
        };
        cols.set(src, c);
      }
      return c;
    };
    for (const m of this.mappings) {
      const t = m.transform;
      if (needsDateSample(t)) get(this.index(info, m.dataColumn, m.templateColumn)).date = true;
      if (t?.kind === 'debitCredit') {
        get(this.index(info, t.debitColumn, m.templateColumn)).decimal = true;
        get(this.index(info, t.creditColumn, m.templateColumn)).decimal = true;
      } else if (needsDecimalSample(t)) get(this.index(info, m.dataColumn, m.templateColumn)).decimal = true;
    }
    this.profileColumns = [...cols.values()];
  }

  profileRow(r: RecordView): boolean {
    const g = this.groups;
    const cols = this.profileColumns;
    for (let j = 0; j < cols.length; j++) {
      const c = cols[j];
      if (c.src >= r.count) continue;
      const v = this.content(r, c.src);
      if (v.s === v.e) continue;
      if (c.date) {
        switch (voteDate(v.buf, v.s, v.e, g)) {
          case 'DMY':
            c.dmy++;
            break;
          case 'MDY':
            c.mdy++;
            break;
          case 'YMD':
            c.ymd++;
            break;
          case 'ambiguous':
            c.ambiguousDates++;
            break;
          default:
        }
      }
      if (c.decimal) {
        const vote = voteDecimal(v.buf, v.s, v.e);
        if (vote === ',') c.comma++;
        else if (vote === '.') c.point++;
        else if (vote === 'thousands?') c.ambiguousDecimals++;
      }
    }
    return ++this.profileRows < this.inferenceRows;
  }

  decide(info: SourceInfo): void {
    const cols = this.profileColumns;
    const anyComma = cols.some((c) => c.decimal && c.comma > c.point);
    const decimalHint =
      this.options.locale?.decimalSeparator ?? (info.delimiter === ';' || anyComma ? ',' : '.');
    const dateHint = this.options.locale?.dateOrder ?? (decimalHint === ',' ? 'DMY' : 'MDY');
    for (const c of cols) {
      const d: Decided = { fromLocale: false, mixedDates: false, ambiguous: false };
      if (c.date) {
        if (c.ymd > c.dmy + c.mdy) d.dateOrder = 'YMD';
        else if (c.dmy > 0 || c.mdy > 0) {
          d.dateOrder = c.dmy >= c.mdy ? 'DMY' : 'MDY';
          d.mixedDates = c.dmy > 0 && c.mdy > 0;
        } else if (c.ymd > 0) d.dateOrder = 'YMD';
        else {
          d.dateOrder = dateHint;
          d.fromLocale = true;
          d.ambiguous = c.ambiguousDates > 0;
        }
      }
      if (c.decimal) {
        if (c.comma > 0 || c.point > 0) d.decimal = c.comma > c.point ? 0x2c : 0x2e;
        else {
          d.decimal = decimalHint.charCodeAt(0);
          d.fromLocale = true;
          d.ambiguous = d.ambiguous || c.ambiguousDecimals > 0;
        }
      }
      this.decided.set(c.src, d);
    }
  }

  // ---- compile ----

  compile(info: SourceInfo): void {
    this.info = info;
    this.stats.source = info;
    this.expected = info.headers.length;
    this.sameDelim = info.delimiter.charCodeAt(0) === this.delim;
    const byTemplate = new Map(this.mappings.map((m) => [m.templateColumn, m]));
    const usedBy = new Map<number, string>();
    const claim = (src: number, template: string): void => {
      const other = usedBy.get(src);
      if (other !== undefined) {
        throw new MappingError(
          `Data column "${info.headers[src]}" is mapped to both "${other}" and "${template}"; a column can feed only one template column.`,
        );
      }
      usedBy.set(src, template);
    };
    const hint = this.options.locale?.decimalSeparator ?? (info.delimiter === ';' ? ',' : '.');
    this.ops = this.templateHeaders.map((column) => {
      const op = newOp(column);
      op.required = this.required.has(column);
      const m = byTemplate.get(column);
      if (!m) return op;
      const t = m.transform;
      if (t?.kind === 'constant') {
        op.kind = OP_CONST;
        const s = new ByteSink(Buffer.byteLength(t.value) * 2 + 8);
        writeStringCell(s, t.value, this.delim, this.protect);
        op.bytes = Buffer.from(s.buf.subarray(0, s.pos));
        return op;
      }
      if (t?.kind === 'debitCredit') {
        op.kind = OP_DEBIT_CREDIT;
        op.src = this.index(info, t.debitColumn, column);
        op.src2 = this.index(info, t.creditColumn, column);
        if (op.src === op.src2)
          throw new MappingError(`Debit and credit for "${column}" must be two different columns.`);
        claim(op.src, column);
        claim(op.src2, column);
        op.mode = 'amount';
        op.dec = this.decided.get(op.src)?.decimal ?? hint.charCodeAt(0);
        op.dec2 = this.decided.get(op.src2)?.decimal ?? hint.charCodeAt(0);
        op.decimals = t.decimals ?? 2;
        op.sign = t.sign === 'debitPositive' ? -1 : 1;
        this.addTotal(op, 'debitCredit', [t.debitColumn, t.creditColumn]);
        this.addInference(column, t.debitColumn, op.src);
        this.addInference(column, t.creditColumn, op.src2);
        return op;
      }
      op.src = this.index(info, m.dataColumn, column);
      claim(op.src, column);
      if (!t) {
        op.kind = OP_COPY;
        return op;
      }
      switch (t.kind) {
        case 'date': {
          op.kind = OP_DATE;
          op.parts = compileOutput(t.output);
          const fixed = t.input && t.input !== 'auto' ? patternOrder(t.input) : null;
          op.order = fixed?.order ?? this.decided.get(op.src)?.dateOrder ?? 'MDY';
          op.widths = fixed?.widths ?? null;
          op.dateNeedsCell =
            /["\r\n]/.test(t.output) ||
            t.output.includes(String.fromCharCode(this.delim)) ||
            /^[=@+\-\t]/.test(t.output);
          if (!fixed) this.addInference(column, m.dataColumn, op.src);
          break;
        }
        case 'number':
        case 'amount': {
          op.kind = OP_NUMBER;
          op.mode = t.kind;
          const fixed = t.decimalSeparator === '.' || t.decimalSeparator === ',' ? t.decimalSeparator : null;
          op.dec = fixed ? fixed.charCodeAt(0) : (this.decided.get(op.src)?.decimal ?? hint.charCodeAt(0));
          op.decimals = t.kind === 'amount' ? (t.decimals ?? 2) : (t.decimals ?? -1);
          op.parentheses = t.kind === 'amount' && t.negative === 'parentheses';
          this.addTotal(op, t.kind, [m.dataColumn]);
          if (!fixed) this.addInference(column, m.dataColumn, op.src);
          break;
        }
        case 'boolean':
          op.kind = OP_BOOL;
          op.trueBytes = t.output[0];
          op.falseBytes = t.output[1];
          break;
        case 'trim':
          op.kind = OP_TRIM;
          break;
        case 'upper':
          op.kind = OP_UPPER;
          break;
        case 'lower':
          op.kind = OP_LOWER;
          break;
      }
      return op;
    });
  }

  private addTotal(op: Op, kind: ControlTotal['kind'], sourceColumns: string[]): void {
    op.srcSum = new DecimalSum();
    op.outSum = new DecimalSum();
    op.total = {
      column: op.column,
      kind,
      sourceColumns,
      sourceTotal: '0',
      outputTotal: '0',
      values: 0,
      unreadable: 0,
    };
    this.stats.controlTotals.push(op.total);
  }

  private addInference(column: string, dataColumn: string, src: number): void {
    const d = this.decided.get(src);
    if (!d) return;
    const inf: ColumnInference = { column, dataColumn, fromLocale: d.fromLocale };
    if (d.dateOrder) inf.dateOrder = d.dateOrder;
    if (d.decimal !== undefined) inf.decimalSeparator = d.decimal === 0x2c ? ',' : '.';
    this.stats.inferred.push(inf);
    if (d.mixedDates) {
      this.warn(
        0,
        column,
        '',
        `The column mixes day-first and month-first dates; read as ${describeOrder(d.dateOrder)}, other rows are reported.`,
      );
    }
    if (d.ambiguous && d.dateOrder) {
      this.warn(
        0,
        column,
        '',
        `Every date in the column could be day-first or month-first; read as ${describeOrder(d.dateOrder)} from the file's locale.`,
      );
    } else if (d.ambiguous && d.decimal !== undefined) {
      this.warn(
        0,
        column,
        '',
        `Numbers like 1,234 could use either decimal separator; read "${String.fromCharCode(d.decimal)}" as the decimal separator from the file's locale.`,
      );
    }
  }

  writeHeader(): void {
    if (this.headerWritten) return;
    this.headerWritten = true;
    const sink = this.sink;
    if (this.options.bom && !this.cp1252) {
      sink.ensure(3);
      sink.byte(0xef);
      sink.byte(0xbb);
      sink.byte(0xbf);
    }
    if (this.options.header === false) return;
    this.templateHeaders.forEach((h, k) => {
      if (k > 0) {
        sink.ensure(1);
        sink.byte(this.delim);
      }
      writeStringCell(sink, h, this.delim, this.protect);
    });
    if (this.templateHeaders.length === 1 && this.templateHeaders[0] === '') {
      sink.ensure(2);
      sink.byte(QUOTE);
      sink.byte(QUOTE);
    }
    this.endLine();
  }

  /**
   * The first output chunk is small (FIRST_FLUSH_BYTES): so the flush path first runs while the row code is
   * still interpreted and collecting type feedback, not after V8 has optimised it without that path (which
   * would throw the optimised code away and run the next thousands of rows interpreted).
   */
  private flushAt = FIRST_FLUSH_BYTES;

  private endLine(): void {
    const sink = this.sink;
    sink.ensure(2);
    if (this.crlf) sink.buf[sink.pos++] = CR;
    sink.buf[sink.pos++] = LF;
    if (sink.pos >= this.flushAt) {
      this.flushAt = FLUSH_BYTES;
      this.flush();
    }
  }

  /** Moves the output written so far to `chunks`; `exact`: in a buffer of its size (the sink is kept). */
  flush(exact = false): void {
    if (this.sink.pos === 0) return;
    let out = this.sink.take(exact);
    if (this.cp1252) {
      const enc = encodeWindows1252(out);
      this.stats.unmappableCharacters += enc.unmappable;
      out = enc.bytes;
    }
    this.chunks.push(out);
  }

  // ---- the hot path ----

  row(r: RecordView, rowNo: number): boolean {
    const stats = this.stats;
    if (stats.rowsIn >= this.maxRows) {
      stats.truncated = true;
      return false;
    }
    stats.rowsIn++;
    const count = r.count;
    if (count !== this.expected) this.ragged(r, rowNo);
    const sink = this.sink;
    // Room for the whole record twice over (quotes, apostrophes, widened numbers) plus delimiters.
    const ends = r.ends;
    const base = r.base;
    sink.ensure((ends[base + count - 1] - ends[base - 1]) * 2 + this.ops.length * 48 + 8);
    const ops = this.ops;
    const nOps = ops.length;
    const delim = this.delim;
    const rowStart = sink.pos;
    const buf = r.buf;
    const sv = r.view;
    const protect = this.protect;
    const sameDelim = this.sameDelim;
    for (let j = 0; j < nOps; j++) {
      if (j > 0) sink.buf[sink.pos++] = delim;
      const op = ops[j];
      const before = sink.pos;
      switch (op.kind) {
        case OP_COPY: {
          // The common cases inline; copy() has them all.
          const k = op.src;
          if (k >= count) break;
          const f = r.flagsOf(k);
          let s = ends[base + k - 1] + 1;
          let e = ends[base + k];
          if (f === PLAIN || f === QUOTED) {
            if (f === QUOTED) {
              s++;
              e--;
            }
            if (s === e) break;
            if ((protect && GUARD[buf[s]] === 1) || !sameDelim) {
              writeCell(sink, buf, s, e, delim, protect);
              break;
            }
          } else if (f === MALFORMED || !sameDelim || (protect && GUARD[buf[s + 1]] === 1)) {
            this.copy(r, k);
            break;
          }
          // Plain content, or a quoted field that still needs its quotes: the raw bytes are valid output.
          sink.copyFrom(buf, sv, s, e);
          break;
        }
        case OP_EMPTY:
          break;
        case OP_CONST:
          sink.ensure(op.bytes.length);
          sink.bytes(op.bytes, 0, op.bytes.length);
          break;
        case OP_DATE:
          if (op.src < count) this.date(r, op, rowNo);
          break;
        case OP_NUMBER:
          if (op.src < count) this.number(r, op, rowNo);
          break;
        case OP_DEBIT_CREDIT:
          this.debitCredit(r, op, rowNo);
          break;
        default:
          if (op.src < count) this.text(r, op);
      }
      if (op.required && sink.pos === before) {
        stats.requiredMissing++;
        this.warn(rowNo, op.column, '', 'Required value is empty');
      }
    }
    if (nOps === 1 && sink.pos === rowStart) {
      // a lone empty cell would read back as a blank line
      sink.buf[sink.pos++] = QUOTE;
      sink.buf[sink.pos++] = QUOTE;
    }
    this.endLine();
    stats.rowsOut++;
    return true;
  }

  private ragged(r: RecordView, rowNo: number): void {
    this.stats.raggedRows++;
    const kept = this.stats.warnings.length;
    this.warn(rowNo, '', '', raggedReason(r.count, this.expected, r.line));
    if (this.raggedLines !== null && this.stats.warnings.length > kept)
      this.raggedLines.push(kept, r.count, r.line);
  }

  // ---- parallel mapping ----

  /** Worker side: ragged-row warnings kept in this block, as [index, fields found, line in block]. */
  private raggedLines: number[] | null = null;

  /** What a worker needs to build the same run (after compile). */
  workerInit(info: SourceInfo, limits: ParserLimits): WorkerInit {
    // The row limit is the main thread's: it takes a block only while the block fits under it.
    const { onProgress: _progress, input: _input, maxRows: _maxRows, ...options } = this.options;
    return {
      templateHeaders: this.templateHeaders,
      mappings: this.mappings,
      options,
      info,
      decided: this.decided,
      delimiter: info.delimiter.charCodeAt(0),
      limits,
    };
  }

  /** Worker side: compiles like the main run did and starts counting per block. */
  startBlocks(init: WorkerInit): void {
    this.decided = init.decided as Map<number, Decided>;
    this.compile(init.info);
    this.headerWritten = true;
    this.flushAt = 0x3fffffff; // one output chunk per block
    this.raggedLines = [];
    this.takeBlockStats();
  }

  /** Worker side: the stats of the block mapped since the last call, then zero. */
  takeBlockStats(): BlockStats {
    const st = this.stats;
    const totals = [];
    for (const op of this.ops) {
      const t = op.total;
      if (!t) continue;
      const src = op.srcSum as DecimalSum;
      const out = op.outSum as DecimalSum;
      totals.push({
        values: t.values,
        unreadable: t.unreadable,
        srcMicros: src.micros(),
        outMicros: out.micros(),
      });
      t.values = 0;
      t.unreadable = 0;
      src.reset();
      out.reset();
    }
    const block: BlockStats = {
      rowsIn: st.rowsIn,
      rowsOut: st.rowsOut,
      warnings: st.warnings,
      ragged: this.raggedLines ?? [],
      warningCount: st.warningCount,
      requiredMissing: st.requiredMissing,
      raggedRows: st.raggedRows,
      unmappableCharacters: st.unmappableCharacters,
      totals,
    };
    st.rowsIn = 0;
    st.rowsOut = 0;
    st.warnings = [];
    st.warningCount = 0;
    st.requiredMissing = 0;
    st.raggedRows = 0;
    st.unmappableCharacters = 0;
    this.raggedLines = [];
    return block;
  }

  /** Main side: may a block of `rows` data rows be added without passing maxRows? */
  fits(rows: number): boolean {
    return this.stats.rowsIn + rows <= this.maxRows;
  }

  /**
   * Main side: adds a block the worker mapped. Its rows follow data row `rowBase`; its first line is
   * `lineBase`.
   */
  mergeBlock(b: BlockStats, rowBase: number, lineBase: number): void {
    const st = this.stats;
    for (let k = 0; k < b.ragged.length; k += 3) {
      b.warnings[b.ragged[k]].reason = raggedReason(
        b.ragged[k + 1],
        this.expected,
        lineBase + b.ragged[k + 2] - 1,
      );
    }
    for (const w of b.warnings) {
      if (st.warnings.length >= this.maxWarnings) break;
      w.row += rowBase;
      st.warnings.push(w);
    }
    st.rowsIn += b.rowsIn;
    st.rowsOut += b.rowsOut;
    st.warningCount += b.warningCount;
    st.requiredMissing += b.requiredMissing;
    st.raggedRows += b.raggedRows;
    st.unmappableCharacters += b.unmappableCharacters;
    let k = 0;
    for (const op of this.ops) {
      const t = op.total;
      if (!t) continue;
      const bt = b.totals[k++];
      t.values += bt.values;
      t.unreadable += bt.unreadable;
      (op.srcSum as DecimalSum).addMicros(bt.srcMicros);
      (op.outSum as DecimalSum).addMicros(bt.outMicros);
    }
  }

  private copy(r: RecordView, k: number): void {
    const buf = r.buf;
    const s = r.ends[r.base + k - 1] + 1;
    const e = r.ends[r.base + k];
    const f = r.flagsOf(k);
    const sink = this.sink;
    if (f === F_PLAIN || f === F_QUOTED) {
      const cs = f === F_PLAIN ? s : s + 1;
      const ce = f === F_PLAIN ? e : e - 1;
      if (cs === ce) return;
      const b0 = buf[cs];
      if ((this.protect && GUARD[b0] === 1) || !this.sameDelim)
        writeCell(sink, buf, cs, ce, this.delim, this.protect);
      else sink.copyFrom(buf, r.view, cs, ce);
      return;
    }
    if (f !== F_MALFORMED && this.sameDelim) {
      // Still needs quotes: the raw field is already valid RFC 4180 output.
      if (this.protect && GUARD[buf[s + 1]] === 1 && needsGuardQuoted(buf, s + 1, e - 1)) {
        sink.ensure(e - s + 1);
        sink.byte(QUOTE);
        sink.byte(0x27);
        sink.bytes(buf, s + 1, e);
      } else sink.copyFrom(buf, r.view, s, e);
      return;
    }
    const v = unescapeField(buf, s, e);
    writeCell(sink, v, 0, v.length, this.delim, this.protect);
  }

  private readonly cv = { buf: Buffer.alloc(0) as Buffer, s: 0, e: 0 };

  /** contentOf without allocating (the result is reused: read it before the next call). */
  private content(r: RecordView, k: number): { buf: Buffer; s: number; e: number } {
    const f = r.flagsOf(k);
    const cv = this.cv;
    const s = r.ends[r.base + k - 1] + 1;
    const e = r.ends[r.base + k];
    if (f === F_PLAIN || (f & 3) === F_QUOTED) {
      const q = f === F_PLAIN ? 0 : 1;
      cv.buf = r.buf;
      cv.s = s + q;
      cv.e = e - q;
      return cv;
    }
    const b = unescapeField(r.buf, s, e);
    cv.buf = b;
    cv.s = 0;
    cv.e = b.length;
    return cv;
  }

  private passThrough(v: { buf: Buffer; s: number; e: number }): void {
    writeCell(this.sink, v.buf, v.s, v.e, this.delim, this.protect);
  }

  private date(r: RecordView, op: Op, rowNo: number): void {
    const v = this.content(r, op.src);
    if (v.s === v.e) return;
    const g = this.groups;
    const out = this.ymd;
    let reason: string | null;
    if (v.e - v.s === 10 && readDate10(v.buf, v.s, op.order, out)) reason = null;
    else if (readGroups(v.buf, v.s, v.e, g)) reason = groupsToDate(g, op.order, op.widths, out);
    else reason = parseDateWithMonthName(v.buf.toString('utf8', v.s, v.e).trim(), out);
    if (reason !== null) {
      if (isBlank(v.buf, v.s, v.e)) return;
      this.warn(
        rowNo,
        op.column,
        v.buf.toString('utf8', v.s, v.e),
        reason === 'not a date' ? 'Not a date' : `Not a date: ${reason}`,
      );
      this.passThrough(v);
      return;
    }
    if (op.dateNeedsCell) {
      const tmp = new ByteSink(64);
      writeDate(tmp, op.parts, out);
      writeCell(this.sink, tmp.buf, 0, tmp.pos, this.delim, this.protect);
    } else writeDate(this.sink, op.parts, out);
  }

  private number(r: RecordView, op: Op, rowNo: number): void {
    const v = this.content(r, op.src);
    if (v.s === v.e) return;
    const n = this.num;
    const reason = parseSimpleNumber(v.buf, v.s, v.e, op.dec, n)
      ? null
      : parseNumberBytes(v.buf, v.s, v.e, op.dec, op.mode, n);
    const total = op.total as ControlTotal;
    if (reason !== null) {
      if (isBlank(v.buf, v.s, v.e)) return;
      total.unreadable++;
      this.warn(
        rowNo,
        op.column,
        v.buf.toString('utf8', v.s, v.e),
        `Not ${op.mode === 'amount' ? 'an amount' : 'a number'}: ${reason}`,
      );
      this.passThrough(v);
      return;
    }
    total.values++;
    (op.srcSum as DecimalSum).add(n);
    writeNumber(this.sink, n, op.decimals, op.parentheses);
    (op.outSum as DecimalSum).add(n);
  }

  private debitCredit(r: RecordView, op: Op, rowNo: number): void {
    const total = op.total as ControlTotal;
    const d = op.src < r.count ? contentOf(r, op.src) : null;
    const c = op.src2 < r.count ? contentOf(r, op.src2) : null;
    const hasD = d !== null && !isBlank(d.buf, d.s, d.e);
    const hasC = c !== null && !isBlank(c.buf, c.s, c.e);
    if (!hasD && !hasC) return;
    const nd = this.num;
    const nc = this.num2;
    const rd = hasD ? parseNumberBytes(d.buf, d.s, d.e, op.dec, 'amount', nd) : null;
    const rc = hasC ? parseNumberBytes(c.buf, c.s, c.e, op.dec2, 'amount', nc) : null;
    if (rd !== null || rc !== null) {
      total.unreadable++;
      const bad =
        rd !== null
          ? (d as { buf: Buffer; s: number; e: number })
          : (c as { buf: Buffer; s: number; e: number });
      this.warn(rowNo, op.column, bad.buf.toString('utf8', bad.s, bad.e), `Not an amount: ${rd ?? rc}`);
      this.passThrough(bad);
      return;
    }
    total.values++;
    // creditPositive: credit − debit. Each side counts by its size.
    const srcSum = op.srcSum as DecimalSum;
    if (hasD) {
      nd.neg = op.sign > 0;
      srcSum.add(nd);
    }
    if (hasC) {
      nc.neg = op.sign < 0;
      srcSum.add(nc);
    }
    let result: NumberScratch;
    if (hasD && hasC) {
      result = subtractInto(nc, nd, this.num, op.sign);
    } else result = hasD ? nd : nc;
    writeNumber(this.sink, result, op.decimals, false);
    (op.outSum as DecimalSum).add(result);
  }

  private text(r: RecordView, op: Op): void {
    const v = contentOf(r, op.src);
    if (v.s === v.e) return;
    const s = v.buf.toString('utf8', v.s, v.e);
    let out: string;
    if (op.kind === OP_BOOL) {
      const key = s.trim().toLowerCase();
      if (key === '') out = '';
      else if (TRUE_WORDS.has(key)) out = op.trueBytes;
      else if (FALSE_WORDS.has(key)) out = op.falseBytes;
      else {
        this.warn(this.stats.rowsIn, op.column, s, 'Not a yes/no value');
        out = s;
      }
    } else if (op.kind === OP_TRIM) out = s.trim();
    else if (op.kind === OP_UPPER) out = s.toUpperCase();
    else out = s.toLowerCase();
    if (out !== '') writeStringCell(this.sink, out, this.delim, this.protect);
  }

  finish(): void {
    for (const op of this.ops) {
      if (!op.total) continue;
      const decimals = op.decimals >= 0 ? op.decimals : 0;
      op.total.sourceTotal = trimZeros((op.srcSum as DecimalSum).toString(6), decimals);
      op.total.outputTotal = trimZeros((op.outSum as DecimalSum).toString(6), decimals);
    }
    this.flush();
  }
}

function raggedReason(found: number, expected: number, line: number): string {
  return `Row has ${found} field${found === 1 ? '' : 's'}, expected ${expected} (line ${line}); ${
    found < expected ? 'missing fields left empty' : 'extra fields dropped'
  }`;
}

/**
 * The worker thread of a parallel mapping (see parallel.ts): maps the blocks it is sent with the same
 * MappingRun as the main thread and returns output bytes, stats and how far it got.
 */
export function mappingWorkerMain(): void {
  const port = parentPort;
  if (!port) return;
  let run: MappingRun | null = null;
  const inputs: Buffer[] = [Buffer.alloc(0), Buffer.alloc(0), Buffer.alloc(0)];
  let lastEnd = 0;
  let delimiter = 0x2c;
  let limits: ParserLimits = {};
  const reply = (m: FromWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);
  port.on('message', (m: ToWorker) => {
    if (m.type === 'init') {
      run = new MappingRun(m.init.templateHeaders, m.init.mappings, m.init.options);
      run.startBlocks(m.init);
      delimiter = m.init.delimiter;
      limits = m.init.limits;
      reply({ type: 'ready' });
      return;
    }
    if (m.type === 'input') {
      inputs[m.slot] = Buffer.from(m.sab) as unknown as Buffer;
      return;
    }
    const r = run as MappingRun;
    const t0 = performance.now();
    const idleMs = lastEnd > 0 ? t0 - lastEnd : 0;
    let rows = 0;
    try {
      const parser = new RecordParser(delimiter, (rec) => r.row(rec, ++rows), limits);
      parser.push(inputs[m.slot].subarray(0, m.length));
      r.flush(true);
      const chunks: ArrayBuffer[] = [];
      const lengths: number[] = [];
      for (const c of r.chunks.splice(0)) {
        // Only a Buffer that is its whole ArrayBuffer may be transferred (small ones can share a pool).
        let own: Uint8Array = c;
        if (c.byteOffset !== 0 || c.buffer.byteLength !== c.length) {
          own = new Uint8Array(c.length);
          own.set(c);
        }
        chunks.push(own.buffer as ArrayBuffer);
        lengths.push(c.length);
      }
      const stats = r.takeBlockStats();
      lastEnd = performance.now();
      reply(
        {
          type: 'block',
          ok: true,
          consumed: parser.bytesConsumed,
          lines: parser.nextLine - 1,
          rows,
          idleMs,
          stats,
          chunks,
          lengths,
        },
        chunks,
      );
    } catch {
      // The main thread maps this block itself (and reports any error with the right line).
      r.chunks.length = 0;
      r.sink.pos = 0;
      r.takeBlockStats();
      lastEnd = performance.now();
      reply({ type: 'block', ok: false });
    }
  });
}

/** credit − debit (or the reverse), both given as magnitudes; exact, via BigInt (rare path). */
function subtractInto(
  credit: NumberScratch,
  debit: NumberScratch,
  out: NumberScratch,
  sign: number,
): NumberScratch {
  const toBig = (n: NumberScratch, scale: number): bigint => {
    let v = 0n;
    for (let k = 1; k <= n.intLen + n.fracLen; k++) v = v * 10n + BigInt(n.digits[k]);
    return v * 10n ** BigInt(scale - n.fracLen);
  };
  const scale = Math.max(credit.fracLen, debit.fracLen);
  let v = toBig(credit, scale) - toBig(debit, scale);
  if (sign < 0) v = -v;
  const neg = v < 0n;
  const str = (neg ? -v : v).toString().padStart(scale + 1, '0');
  const intStr = str.slice(0, str.length - scale).replace(/^0+/, '');
  const fracStr = str.slice(str.length - scale);
  out.neg = neg;
  out.intLen = intStr.length;
  out.fracLen = fracStr.length;
  for (let k = 0; k < intStr.length; k++) out.digits[1 + k] = intStr.charCodeAt(k) - 0x30;
  for (let k = 0; k < fracStr.length; k++) out.digits[1 + intStr.length + k] = fracStr.charCodeAt(k) - 0x30;
  recomputeValue(out);
  return out;
}

function trimZeros(s: string, decimals: number): string {
  // DecimalSum prints 6 places; show the column's own precision (at least its decimals, more if needed).
  const dot = s.indexOf('.');
  if (dot < 0) return s;
  let end = s.length;
  while (end > dot + 1 + decimals && s[end - 1] === '0') end--;
  if (end === dot + 1) end = dot;
  return s.slice(0, end);
}

function describeOrder(o: DateOrder | undefined): string {
  return o === 'DMY' ? 'day-first (DD/MM)' : o === 'MDY' ? 'month-first (MM/DD)' : 'year-first';
}

function isBlank(buf: Buffer, s: number, e: number): boolean {
  for (let i = s; i < e; i++) if (buf[i] !== 0x20 && buf[i] !== 0x09) return false;
  return true;
}

/** First bytes that may call for the formula guard: = @ TAB CR LF + -. */
const GUARD = new Uint8Array(256);
for (const c of [0x3d, 0x40, 0x09, 0x0d, 0x0a, 0x2b, 0x2d]) GUARD[c] = 1;

function needsGuardQuoted(buf: Buffer, s: number, e: number): boolean {
  const b = buf[s];
  if (b === 0x2b || b === 0x2d) return !isNumberOrPhone(buf, s, e);
  return true;
}

/** Normalises any CsvInput to an async iterator of chunks. */
export function chunksOf(input: CsvInput): AsyncIterator<Buffer | Uint8Array | string> {
  if (typeof input === 'string' || input instanceof Uint8Array) {
    const one = [input];
    return (async function* () {
      yield* one;
    })();
  }
  if (Symbol.asyncIterator in input)
    return (input as AsyncIterable<Buffer | Uint8Array | string>)[Symbol.asyncIterator]();
  const it = (input as Iterable<Buffer | Uint8Array | string>)[Symbol.iterator]();
  return {
    next: async () => it.next(),
    return: async () => {
      it.return?.();
      return { done: true, value: undefined };
    },
  };
}

function byteLength(c: Buffer | Uint8Array | string): number {
  return typeof c === 'string' ? Buffer.byteLength(c) : c.length;
}

/**
 * Maps `input` onto `templateHeaders` through `mappings` (ARCHITECTURE §4). Returns the output stream and a
 * promise of the stats. Memory stays flat: the input is read chunk by chunk, with backpressure from `output`.
 */
export function applyMapping(
  input: CsvInput,
  templateHeaders: readonly string[],
  mappings: readonly MappingPair[],
  options: ApplyOptions = {},
): ApplyResult {
  // Request errors are thrown at once, before any byte is read; file errors come through the stream.
  validateApplyOptions(options);
  validateMappings(templateHeaders, mappings);
  let resolve!: (s: ApplyStats) => void;
  let reject!: (e: unknown) => void;
  const stats = new Promise<ApplyStats>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  stats.catch(() => undefined); // callers may listen on the stream only
  let settled = false;

  async function* produce(): AsyncGenerator<Buffer> {
    const run = new MappingRun(templateHeaders, mappings, options);
    const readOptions = options.input ?? {};
    const par = (options.threads ?? 1) > 1 ? ParallelMapper.start(__filename) : null;
    const source = chunksOf(input);
    let bytesIn = 0;
    const saved: (Buffer | Uint8Array | string)[] = [];
    let inputEnded = false;
    if (run.needsProfile) {
      const profiler = new CsvReader(readOptions, {
        onHeader: (info) => run.startProfile(info),
        onRow: (r) => run.profileRow(r),
      });
      let savedBytes = 0;
      while (!profiler.stopped && savedBytes < MAX_PROFILE_BYTES) {
        const next = await source.next();
        if (next.done) {
          profiler.end();
          inputEnded = true;
          break;
        }
        saved.push(next.value);
        savedBytes += byteLength(next.value);
        profiler.push(next.value);
      }
      // Without a header in the sample the main reader reports the problem (empty file, no names).
      if (profiler.info) run.decide(profiler.info);
    }
    const reader = new CsvReader(readOptions, {
      onHeader: (info) => {
        run.compile(info);
        run.writeHeader();
        par?.init(run.workerInit(info, readOptions));
      },
      onRow: (r, row) => run.row(r, row),
    });
    const feed = (chunk: Buffer | Uint8Array | string): void => {
      bytesIn += byteLength(chunk);
      reader.push(chunk);
      options.onProgress?.({ rowsIn: run.stats.rowsIn, bytesIn });
    };
    try {
      for (const chunk of saved) {
        feed(chunk);
        if (reader.stopped) break;
      }
      saved.length = 0;
      while (run.chunks.length > 0) yield run.chunks.shift() as Buffer;
      if (par) {
        // Pipelined two chunks deep, so neither thread waits on the other's hiccups: chunk n+2 is read and
        // its worker part queued, then chunk n's worker part is added, then chunk n+1's head is mapped here.
        let headDone: Staged | null = null;
        let pending: Staged | null = null;
        for (;;) {
          let staged: Staged | null = null;
          if (!inputEnded && !reader.stopped) {
            const next = await source.next();
            if (next.done) inputEnded = true;
            else {
              bytesIn += byteLength(next.value);
              staged = par.stage(reader, next.value);
            }
          }
          if (headDone) {
            await par.finish(reader, run, headDone);
            headDone = null;
            options.onProgress?.({ rowsIn: run.stats.rowsIn, bytesIn });
            while (run.chunks.length > 0) yield run.chunks.shift() as Buffer;
          }
          if (pending && !reader.stopped) {
            par.runHead(reader, pending);
            headDone = pending;
          }
          pending = staged;
          if (!headDone && !pending) break;
        }
      }
      while (!reader.stopped && !inputEnded) {
        const next = await source.next();
        if (next.done) break;
        feed(next.value);
        while (run.chunks.length > 0) yield run.chunks.shift() as Buffer;
      }
      if (!reader.stopped) reader.end();
      // Keep the header even for a file with no data rows.
      if (reader.info) run.writeHeader();
      run.finish();
      run.stats.source = { ...(reader.info as SourceInfo), encoding: reader.encoding };
      while (run.chunks.length > 0) yield run.chunks.shift() as Buffer;
    } finally {
      par?.close();
      // Stops (and destroys) the input when we stop early: maxRows, an error, or a closed output.
      await source.return?.();
    }
    settled = true;
    resolve(run.stats);
  }

  const gen = produce();
  const wrapped = (async function* () {
    try {
      yield* gen;
    } catch (e) {
      settled = true;
      reject(e);
      throw e;
    } finally {
      if (!settled) reject(new Error('The output stream was closed before the mapping finished.'));
    }
  })();
  const output = Readable.from(wrapped, { objectMode: false });
  return { output, stats };
}

/** applyMapping collected into one Buffer (small files, sync requests). */
export async function applyMappingToBuffer(
  input: CsvInput,
  templateHeaders: readonly string[],
  mappings: readonly MappingPair[],
  options: ApplyOptions = {},
): Promise<{ data: Buffer; stats: ApplyStats }> {
  const { output, stats } = applyMapping(input, templateHeaders, mappings, options);
  const parts: Buffer[] = [];
  for await (const chunk of output) parts.push(chunk as Buffer);
  return { data: Buffer.concat(parts), stats: await stats };
}
