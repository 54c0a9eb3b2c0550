// The row loop: one MappingRun maps the records of one file (or, in a worker thread, of the blocks it is
// sent) through the compiled plan into output bytes — header, one cell per Op, line ends — collected in
// `chunks`, and counts its stats. Cells are copied as bytes where they can be; each transform family's
// cell work is in transforms/.
import { DateGroups, type Ymd } from '../dates';
import { encodeWindows1252 } from '../encoding';
import { NumberScratch } from '../numbers';
import type { BlockStats, WorkerInit } from '../parallel';
import {
  CR,
  emptyFrom,
  F_MALFORMED,
  F_PLAIN,
  F_QUOTED,
  LF,
  QUOTE,
  type ParserLimits,
  type RecordView,
} from '../parser';
import type { SourceInfo } from '../reader';
import { REQUIRED_MESSAGE } from '../../../rules/src/column-rules';
import { formulaGuardNeeded } from '../../../rules/src/formula-guard';
import type { ApplyOptions, ApplyStats, MappingPair, RowPatch, WarningRule } from '../types';
import { ByteSink, needsFormulaGuard, writeCell, writeStringCell, writeTextCell } from '../writer';
import { mergeBlockStats, raggedReason, takeBlockStats } from './blocks';
import type { CellOut, Span } from './cells';
import { chainValue, scratchOut, SRC_CONTENT, type ChainHost } from './chain';
import { compilePlan, type PlanInput } from './compile';
import type { Decided } from './inference';
import {
  OP_BOOL,
  OP_CHAIN,
  OP_COMBINE,
  OP_CONST,
  OP_COPY,
  OP_DATE,
  OP_DEBIT_CREDIT,
  OP_EMPTY,
  OP_LOWER,
  OP_NUMBER,
  OP_TRIM,
  OP_UPPER,
  type Op,
} from './plan';
import { checkBytes, checkValue, type CompiledRules } from './rules';
import { finishTotals, type DecimalSum } from './totals';
import type { RowHistory } from '../history/set';
import { mapBoolean } from './transforms/boolean';
import { GUARD as FORMULA_GUARD, copyField } from './transforms/copy';
import { mapCombine } from './transforms/combine';
import { mapDate } from './transforms/date';
import { mapDebitCredit, mapNumber } from './transforms/number';
import { mapText } from './transforms/text';

// Module-level copies of imported constants for the row code: uses of imported bindings compile to
// property loads on the exporting module, which V8 wants to have seen run before it optimises them.
const PLAIN = F_PLAIN;
const QUOTED = F_QUOTED;
const MALFORMED = F_MALFORMED;
const K_EMPTY = OP_EMPTY;
const K_COPY = OP_COPY;
const K_CONST = OP_CONST;
const K_DATE = OP_DATE;
const K_NUMBER = OP_NUMBER;
const K_BOOL = OP_BOOL;
const K_DEBIT_CREDIT = OP_DEBIT_CREDIT;
const K_CHAIN = OP_CHAIN;
const K_COMBINE = OP_COMBINE;
const GUARD = FORMULA_GUARD;
const APOS = 0x27;

const FLUSH_BYTES = 512 * 1024;
const FIRST_FLUSH_BYTES = 16 * 1024;

/** ApplyStats.source before the header is read (no file yet). */
const NO_SOURCE_YET: SourceInfo = {
  encoding: 'utf-8',
  bom: false,
  delimiter: ',',
  headerRow: 1,
  skippedLines: 0,
  headers: [],
  duplicateHeaders: [],
  blankHeaders: [],
};

/**
 * quoteStyle 'all': wraps the cell written from `before` in quotes unless it already is quoted (a written
 * cell starts with a quote only when it was quoted: content with a quote is always quoted).
 */
function quoteCell(sink: ByteSink, before: number): void {
  if (sink.pos > before && sink.buf[before] === QUOTE) return;
  sink.ensure(2);
  const buf = sink.buf;
  if (sink.pos > before) buf.copyWithin(before + 1, before, sink.pos);
  buf[before] = QUOTE;
  buf[sink.pos + 1] = QUOTE;
  sink.pos += 2;
}

export class MappingRun implements ChainHost, PlanInput {
  readonly stats: ApplyStats;
  readonly sink = new ByteSink(FLUSH_BYTES + 64 * 1024);
  readonly chunks: Buffer[] = [];
  readonly delim: number;
  readonly protect: boolean;
  readonly required: Set<string>;
  readonly num = new NumberScratch();
  readonly num2 = new NumberScratch();
  readonly groups = new DateGroups();
  readonly ymd: Ymd = { y: 0, m: 0, d: 0 };
  readonly cv: Span = { buf: Buffer.alloc(0), s: 0, e: 0 };
  /** Where the byte transforms that start a chain write their cell (see chain.ts). */
  readonly scratch: CellOut = scratchOut(this);
  private readonly combineScratch = new ByteSink(4096);
  private readonly patch: RowPatch | null;
  /** Rows with an edit in the patch, counted as they are written. */
  private editedRows = 0;
  private editedCells = 0;
  rowDataEdits: Map<number, string> | null = null;
  /** Template columns that copy a data column's text (trimmed or cased at most), by that column. */
  private editFeeds = new Map<string, number>();
  /** The inference pass's decisions (set before compile). */
  decided = new Map<number, Decided>();
  private ops: Op[] = [];
  private readonly crlf: boolean;
  private readonly quoteAll: boolean;
  private readonly maxWarnings: number;
  private readonly maxRows: number;
  private readonly cp1252: boolean;
  private expected = 0;
  private sameDelim = false;
  private headerWritten = false;
  /**
   * The first output chunk is small (FIRST_FLUSH_BYTES): so the flush path first runs while the row code is
   * still interpreted and collecting type feedback, not after V8 has optimised it without that path (which
   * would throw the optimised code away and run the next thousands of rows interpreted).
   */
  private flushAt = FIRST_FLUSH_BYTES;
  /** Worker side: ragged-row warnings kept in this block, as [index, fields found, line in block]. */
  private raggedLines: number[] | null = null;
  /** Run history of a saved mapping (history/set.ts): each written row is looked up and collected. */
  private readonly history: RowHistory | null;
  private readonly skipSeen: boolean;
  /** `flag` / `keep` runs: rows are hashed a chunk at a time, at the flush (their output does not change). */
  private readonly deferSeen: boolean;
  /** Where each cell of the current row starts in the sink (key-column fingerprints only). */
  private cellStarts: Int32Array | null = null;
  private keyIndexes: Int32Array | null = null;
  /** `skip` runs: the row's starting warnings length, warning count, required-missing and ragged counts. */
  private readonly rowMark = new Int32Array(4);
  /** `skip` runs: the rules the current row warned about. */
  private readonly rowRules: WarningRule[] = [];
  /** Written sums, rolled back for a row history leaves out. */
  private outSums: DecimalSum[] = [];

  constructor(
    readonly templateHeaders: readonly string[],
    readonly mappings: readonly MappingPair[],
    readonly options: ApplyOptions,
  ) {
    this.delim = (options.delimiter ?? ',').charCodeAt(0);
    this.crlf = (options.lineEnding ?? '\r\n') === '\r\n';
    this.quoteAll = options.quoteStyle === 'all';
    this.protect = options.formulaProtection ?? true;
    this.maxWarnings = options.maxWarnings ?? 100;
    this.maxRows = options.maxRows ?? Infinity;
    this.required = new Set(options.required ?? []);
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
      // Filled in by compile() and again at the end of the read (the file's own reading).
      source: NO_SOURCE_YET,
      warningsByRule: {},
    };
    this.patch = options.patch ?? null;
    this.history = options.history ?? null;
    this.skipSeen = this.history !== null && this.history.mode === 'skip';
    this.deferSeen = this.history !== null && !this.skipSeen;
    if (this.history) this.stats.alreadyExported = 0;
    if (this.patch) this.stats.corrections = { cellsEdited: 0, rowsEdited: 0, rowsDeleted: 0 };
  }

  warn(row: number, column: string, value: string, reason: string, rule?: WarningRule): void {
    this.stats.warningCount++;
    if (this.skipSeen && rule !== undefined) this.rowRules.push(rule);
    if (rule !== undefined) this.stats.warningsByRule[rule] = (this.stats.warningsByRule[rule] ?? 0) + 1;
    if (this.stats.warnings.length < this.maxWarnings)
      this.stats.warnings.push(
        rule === undefined ? { row, column, value, reason } : { row, column, value, reason, rule },
      );
  }

  /** A chain's (or an edited) value: checked against the column's rules, then written. */
  private writeChecked(op: Op, v: string, rowNo: number): void {
    if (v === '') return;
    const rules = op.rules;
    if (rules !== null) this.check(rules, op.column, v, rowNo);
    writeTextCell(this.sink, v, this.delim, this.protect);
  }

  /** Checks the cell a byte op wrote at sink[before, pos) against the column's rules. */
  private checkCell(op: Op, before: number, rowNo: number): void {
    const rules = op.rules as CompiledRules;
    const buf = this.sink.buf;
    let s = before;
    const e = this.sink.pos;
    if (buf[s] === QUOTE) {
      // Quoted on output (a delimiter, quote or line break inside): read the text back.
      let v = buf.toString('utf8', s + 1, e - 1).replace(/""/g, '"');
      if (this.protect && v.charCodeAt(0) === APOS && formulaGuardNeeded(v.slice(1))) v = v.slice(1);
      this.check(rules, op.column, v, rowNo);
      return;
    }
    if (this.protect && buf[s] === APOS && needsFormulaGuard(buf, s + 1, e)) s++;
    checkBytes(rules, buf, s, e, rowNo, op.column, this);
  }

  private check(rules: CompiledRules, column: string, v: string, rowNo: number): void {
    checkValue(rules, v, rowNo, (rule, message) => this.warn(rowNo, column, v, message, rule));
  }

  compile(info: SourceInfo): void {
    this.stats.source = info;
    this.expected = info.headers.length;
    this.sameDelim = info.delimiter.charCodeAt(0) === this.delim;
    this.ops = compilePlan(info, this);
    this.editFeeds = new Map(
      this.ops
        .filter(
          (op) =>
            op.src >= 0 &&
            (op.kind === OP_COPY ||
              op.kind === OP_TRIM ||
              op.kind === OP_UPPER ||
              op.kind === OP_LOWER ||
              (op.kind === OP_CHAIN && op.chain?.source === SRC_CONTENT)),
        )
        .map((op) => [op.column, op.src]),
    );
    const keys = this.history?.keyColumns ?? null;
    if (keys !== null && keys.length > 0) {
      this.keyIndexes = Int32Array.from(keys.map((k) => this.ops.findIndex((op) => op.column === k)));
      this.cellStarts = new Int32Array(this.ops.length);
    }
    this.outSums = this.ops.flatMap((op) => (op.outSum ? [op.outSum] : []));
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
      const before = sink.pos;
      writeStringCell(sink, h, this.delim, this.protect);
      if (this.quoteAll) quoteCell(sink, before);
    });
    if (!this.quoteAll && this.templateHeaders.length === 1 && this.templateHeaders[0] === '') {
      sink.ensure(2);
      sink.byte(QUOTE);
      sink.byte(QUOTE);
    }
    this.endLine();
  }

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
    // The rows' bytes as handed over (before any re-encoding): a buffer nothing writes to again, so the
    // history may hash it after this returns.
    if (this.deferSeen) this.drainSeen(out);
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
    let edits: ReadonlyMap<string, string> | null = null;
    if (this.patch !== null) {
      if (this.patch.deleted.has(rowNo)) {
        (stats.corrections as { rowsDeleted: number }).rowsDeleted++;
        return true;
      }
      edits = this.patch.edits.get(rowNo) ?? null;
      this.rowDataEdits = null;
      if (edits !== null) {
        this.editedRows++;
        for (const [column, value] of edits) {
          const k = this.editFeeds.get(column);
          if (k !== undefined) (this.rowDataEdits ??= new Map()).set(k, value);
        }
      }
    }
    const count = r.count;
    if (this.skipSeen) this.markRow();
    if (count !== this.expected && (count < this.expected || !emptyFrom(r, this.expected)))
      this.ragged(r, rowNo);
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
    const cellStarts = this.cellStarts;
    if (this.skipSeen) for (const sum of this.outSums) sum.mark();
    for (let j = 0; j < nOps; j++) {
      if (j > 0) sink.buf[sink.pos++] = delim;
      const op = ops[j];
      const before = sink.pos;
      if (cellStarts !== null) cellStarts[j] = before;
      const edit = edits === null ? undefined : edits.get(op.column);
      if (edit !== undefined) {
        this.editedCells++;
        this.writeChecked(op, edit, rowNo);
        if (op.required && sink.pos === before) this.missing(op, rowNo);
        if (this.quoteAll) quoteCell(sink, before);
        continue;
      }
      switch (op.kind) {
        case K_COPY: {
          // The common cases inline; copyField() has them all.
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
            copyField(this, r, k, sameDelim);
            break;
          }
          // Plain content, or a quoted field that still needs its quotes: the raw bytes are valid output.
          sink.copyFrom(buf, sv, s, e);
          break;
        }
        case K_EMPTY:
          break;
        case K_CONST:
          sink.ensure(op.bytes.length);
          sink.bytes(op.bytes, 0, op.bytes.length);
          break;
        case K_DATE:
          if (op.src < count) mapDate(this, r, op, rowNo);
          break;
        case K_NUMBER:
          if (op.src < count && mapNumber(this, r, op, rowNo) && op.numberMeetsRules) {
            // A number it wrote meets the column's rules (compile.ts numberMeetsRules).
            if (this.quoteAll) quoteCell(sink, before);
            continue;
          }
          break;
        case K_DEBIT_CREDIT:
          mapDebitCredit(this, r, op, rowNo);
          break;
        case K_BOOL:
          if (op.src < count) mapBoolean(this, r, op);
          break;
        case K_CHAIN:
          this.writeChecked(op, chainValue(this, r, op, rowNo), rowNo);
          break;
        case K_COMBINE:
          // An edited source column of this row: the text path reads the edit (rules checked below).
          if (this.rowDataEdits !== null) writeTextCell(sink, chainValue(this, r, op, rowNo), delim, protect);
          else mapCombine(this, r, op, this.combineScratch, sameDelim);
          break;
        default:
          if (op.src < count) mapText(this, r, op);
      }
      if (sink.pos === before) {
        if (op.required) this.missing(op, rowNo);
      } else if (op.rules !== null && op.kind !== K_CHAIN) this.checkCell(op, before, rowNo);
      if (this.quoteAll) quoteCell(sink, before);
    }
    if (nOps === 1 && sink.pos === rowStart) {
      // a lone empty cell would read back as a blank line
      sink.buf[sink.pos++] = QUOTE;
      sink.buf[sink.pos++] = QUOTE;
    }
    if (this.history !== null) {
      if (this.deferSeen)
        this.history.defer(rowNo, rowStart, sink.pos, this.cellStarts, this.keyIndexes, this.ops.length);
      else if (this.seen(rowStart)) return true;
    }
    this.endLine();
    stats.rowsOut++;
    return true;
  }

  /** Run history (`skip`): true when the row was exported before and is left out (bytes and sums taken back). */
  private seen(rowStart: number): boolean {
    const h = this.history as RowHistory;
    const sink = this.sink;
    const run = h.check(sink.buf, rowStart, sink.pos, this.cellStarts, this.keyIndexes, this.ops.length);
    if (run < 0) return false;
    (this.stats as { alreadyExported: number }).alreadyExported++;
    sink.pos = rowStart;
    for (const sum of this.outSums) sum.rollback();
    this.unwarnRow();
    return true;
  }

  /** `skip` runs: where the row's warnings and counts start, so a row left out takes them back. */
  private markRow(): void {
    const stats = this.stats;
    this.rowMark[0] = stats.warnings.length;
    this.rowMark[1] = stats.warningCount;
    this.rowMark[2] = stats.requiredMissing;
    this.rowMark[3] = stats.raggedRows;
    this.rowRules.length = 0;
  }

  /** A row already exported and left out: its rule warnings describe nothing written, so they go too. */
  private unwarnRow(): void {
    const stats = this.stats;
    stats.warnings.length = Math.min(stats.warnings.length, this.rowMark[0]);
    stats.warningCount = this.rowMark[1];
    stats.requiredMissing = this.rowMark[2];
    stats.raggedRows = this.rowMark[3];
    for (const rule of this.rowRules) {
      const n = (stats.warningsByRule[rule] ?? 1) - 1;
      if (n > 0) stats.warningsByRule[rule] = n;
      else delete stats.warningsByRule[rule];
    }
    this.rowRules.length = 0;
  }

  /** Run history (`flag` / `keep`): the rows written since the last flush, looked up together. */
  private drainSeen(out: Buffer): void {
    (this.history as RowHistory).drain(out, this.onSeen);
  }

  /** A deferred row found among earlier runs' fingerprints. */
  private readonly onSeen = (rowNo: number, run: number): void => {
    const h = this.history as RowHistory;
    (this.stats as { alreadyExported: number }).alreadyExported++;
    if (h.mode === 'flag') this.warnInOrder(rowNo, h.reasonOf(run), 'alreadyExported');
  };

  /**
   * After finish(): rows hashed before the earlier runs' fingerprints had arrived are looked up now (their
   * bytes are already out; only counts and warnings change). Rejects when the fingerprints failed to load.
   */
  async settleHistory(): Promise<void> {
    if (this.deferSeen) await (this.history as RowHistory).settle(this.onSeen);
  }

  /**
   * A row warning found after later rows were checked (a deferred history lookup): counted like warn(), and
   * kept among the first `maxWarnings` in row order, after the row's own rule warnings.
   */
  private warnInOrder(row: number, reason: string, rule: WarningRule): void {
    const warnings = this.stats.warnings;
    const last = warnings.length > 0 ? warnings[warnings.length - 1].row : -1;
    if (last <= row || warnings.length === 0) {
      this.warn(row, '', '', reason, rule);
      return;
    }
    this.stats.warningCount++;
    this.stats.warningsByRule[rule] = (this.stats.warningsByRule[rule] ?? 0) + 1;
    let i = warnings.length;
    while (i > 0 && warnings[i - 1].row > row) i--;
    if (i >= this.maxWarnings) return;
    warnings.splice(i, 0, { row, column: '', value: '', reason, rule });
    if (warnings.length > this.maxWarnings) warnings.pop();
  }

  private missing(op: Op, rowNo: number): void {
    this.stats.requiredMissing++;
    this.warn(rowNo, op.column, '', REQUIRED_MESSAGE, 'required');
  }

  private ragged(r: RecordView, rowNo: number): void {
    this.stats.raggedRows++;
    const kept = this.stats.warnings.length;
    this.warn(rowNo, '', '', raggedReason(r.count, this.expected, r.line));
    if (this.raggedLines !== null && this.stats.warnings.length > kept)
      this.raggedLines.push(kept, r.count, r.line);
  }

  finish(): void {
    finishTotals([...this.ops, ...this.ops.flatMap((op) => (op.chain?.inner ? [op.chain.inner] : []))]);
    this.flush();
    const byRule = this.stats.warningsByRule;
    const ruled = Object.values(byRule).reduce((a, b) => a + b, 0);
    if (this.stats.warningCount > ruled) byRule.other = this.stats.warningCount - ruled;
    if (this.stats.corrections) {
      this.stats.corrections.cellsEdited = this.editedCells;
      this.stats.corrections.rowsEdited = this.editedRows;
    }
  }

  // ---- parallel mapping (see parallel.ts and blocks.ts) ----

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
    const block = takeBlockStats(this.stats, this.ops, this.raggedLines ?? []);
    this.raggedLines = [];
    return block;
  }

  /** Main side: may a block of `rows` data rows be added without passing maxRows? */
  fits(rows: number): boolean {
    return this.stats.rowsIn + rows <= this.maxRows;
  }

  /** Main side: adds a block the worker mapped (rows after data row `rowBase`, from line `lineBase`). */
  mergeBlock(b: BlockStats, rowBase: number, lineBase: number): void {
    mergeBlockStats(this.stats, this.ops, b, rowBase, lineBase, this.expected, this.maxWarnings);
  }
}
