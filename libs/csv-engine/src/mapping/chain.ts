// The chain op (OP_CHAIN): a template column whose cell is worked on as a string — issue 22's text
// transforms, a list of transforms applied in order, or a column with rules. Its first value comes from
// a combine pattern, a constant, the data column's text, or one of the byte transforms (date, number,
// amount, boolean, debit/credit) run into a scratch sink; then each step runs; the row loop checks the
// rules and writes the cell.
import { QUOTE, type RecordView } from '../parser';
import type { WarningRule } from '../types';
import { ByteSink } from '../writer';
import { contentOf, type CellOut } from './cells';
import { OP_BOOL, OP_COPY, OP_DATE, OP_DEBIT_CREDIT, OP_NUMBER, type Op } from './plan';
import { mapBoolean } from './transforms/boolean';
import { mapDate } from './transforms/date';
import { mapDebitCredit, mapNumber } from './transforms/number';
import { firstNonEmpty } from './transforms/coalesce';
import { combineValues, type CombinePattern } from './transforms/strings';

/** Where a chain's first value comes from. */
export const SRC_NONE = 0;
export const SRC_CONTENT = 1;
export const SRC_COMBINE = 2;
export const SRC_CONSTANT = 3;
export const SRC_INNER = 4;
export const SRC_COALESCE = 5;

export type StepWarn = (rule: WarningRule | undefined, value: string, message: string) => void;
/** One step: the new value (it may warn, e.g. truncate). */
export type Step = (v: string, warn: StepWarn) => string;

export interface ChainPlan {
  source: number;
  combine: CombinePattern | null;
  /** The combine pattern's literals as UTF-8 (for the byte path). */
  litBytes: Buffer[];
  /** Does a literal hold a quote (the byte path then joins the cell before writing it)? */
  litQuote: boolean;
  /** Does a literal hold the output delimiter, CR or LF (the byte path then checks literal bytes)? */
  litSpecial: boolean;
  /** Data column of each combine reference, or each coalesce column in order (-1: no such field). */
  combineSrc: number[];
  constant: string;
  /** A byte transform run first (its op's own kind, src and settings). */
  inner: Op | null;
  steps: Step[];
}

export function newChain(): ChainPlan {
  return {
    source: SRC_NONE,
    combine: null,
    litBytes: [],
    litQuote: false,
    litSpecial: false,
    combineSrc: [],
    constant: '',
    inner: null,
    steps: [],
  };
}

/** What the chain needs of the run: its output side and a scratch output for the byte transforms. */
export interface ChainHost extends CellOut {
  readonly scratch: CellOut;
  /**
   * This row's edited values by data column: an edit of a template column copied from a data column
   * also feeds the chains that derive from that column (fix the Title, and the Handle follows).
   */
  readonly rowDataEdits: ReadonlyMap<number, string> | null;
}

const textOf = (host: ChainHost, r: RecordView, k: number): string => {
  if (host.rowDataEdits !== null) {
    const edited = host.rowDataEdits.get(k);
    if (edited !== undefined) return edited;
  }
  if (k < 0 || k >= r.count) return '';
  const v = contentOf(r, k);
  return v.s === v.e ? '' : v.buf.toString('utf8', v.s, v.e);
};

/** The cell a byte transform wrote to the scratch sink, as text (unquoted; protection is off there). */
function takeScratch(sink: ByteSink): string {
  const buf = sink.buf;
  const n = sink.pos;
  sink.pos = 0;
  if (n === 0) return '';
  if (buf[0] !== QUOTE) return buf.toString('utf8', 0, n);
  return buf.toString('utf8', 1, n - 1).replace(/""/g, '"');
}

function innerValue(host: ChainHost, r: RecordView, inner: Op, rowNo: number): string {
  const out = host.scratch;
  // The row loop sizes the run's sink per record; the scratch sink is sized the same way.
  out.sink.ensure((r.ends[r.base + r.count - 1] - r.ends[r.base - 1]) * 2 + 64);
  switch (inner.kind) {
    case OP_COPY:
      return textOf(host, r, inner.src);
    case OP_DATE:
      if (inner.src < r.count) mapDate(out, r, inner, rowNo);
      break;
    case OP_NUMBER:
      if (inner.src < r.count) mapNumber(out, r, inner, rowNo);
      break;
    case OP_DEBIT_CREDIT:
      mapDebitCredit(out, r, inner, rowNo);
      break;
    case OP_BOOL:
      if (inner.src < r.count) mapBoolean(out, r, inner);
      break;
    default:
      return textOf(host, r, inner.src);
  }
  return takeScratch(out.sink);
}

/** The chain's value for this row. */
export function chainValue(host: ChainHost, r: RecordView, op: Op, rowNo: number): string {
  const c = op.chain as ChainPlan;
  let v: string;
  switch (c.source) {
    case SRC_CONTENT:
      v = textOf(host, r, op.src);
      break;
    case SRC_COMBINE: {
      const values = c.combineSrc.map((k) => textOf(host, r, k));
      v = combineValues(c.combine as CombinePattern, values);
      break;
    }
    case SRC_CONSTANT:
      v = c.constant;
      break;
    case SRC_COALESCE:
      v = firstNonEmpty(c.combineSrc, (k) => textOf(host, r, k));
      break;
    case SRC_INNER:
      v = innerValue(host, r, c.inner as Op, rowNo);
      break;
    default:
      v = '';
  }
  const steps = c.steps;
  if (steps.length === 0) return v;
  const warn: StepWarn = (rule, value, message) => host.warn(rowNo, op.column, value, message, rule);
  for (let k = 0; k < steps.length; k++) v = steps[k](v, warn);
  return v;
}

/** A scratch output for the byte transforms of chains: same delimiter, no formula protection. */
export function scratchOut(host: CellOut): CellOut {
  return {
    sink: new ByteSink(64 * 1024),
    delim: host.delim,
    protect: false,
    get stats() {
      return host.stats;
    },
    cv: host.cv,
    num: host.num,
    num2: host.num2,
    groups: host.groups,
    ymd: host.ymd,
    warn: (row, column, value, reason) => host.warn(row, column, value, reason),
  };
}
