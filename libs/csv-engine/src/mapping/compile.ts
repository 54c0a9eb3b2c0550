// Compiling a mapping: the request-time checks (validateMappings, validateApplyOptions) and, once the
// data file's header is known, the plan — one Op per template column, with its data column(s), the
// transform's settings (fixed or inferred), its control total and its inference report.
import { compileOutput, isValidPattern, patternOrder } from '../dates';
import { DELIMITERS } from '../delimiters';
import { MappingError, OptionsError } from '../errors';
import type { SourceInfo } from '../reader';
import type { ApplyOptions, ApplyStats, ControlTotal, MappingPair, Transform } from '../types';
import { describeDecision, type Decided } from './inference';
import {
  OP_BOOL,
  OP_CHAIN,
  OP_COMBINE,
  OP_CONST,
  OP_COPY,
  OP_DATE,
  OP_DEBIT_CREDIT,
  OP_LOWER,
  OP_NUMBER,
  OP_TRIM,
  OP_UPPER,
  columnIndex,
  newOp,
  type Op,
} from './plan';
import {
  newChain,
  SRC_COALESCE,
  SRC_COMBINE,
  SRC_CONSTANT,
  SRC_CONTENT,
  SRC_INNER,
  type Step,
} from './chain';
import { compileRules } from './rules';
import { attachTotal } from './totals';
import { checkCoalesce } from './transforms/coalesce';
import { dateNeedsCell } from './transforms/date';
import { checkSign, compileSign } from './transforms/sign';
import {
  compileMapValues,
  compileReplace,
  compileSplit,
  defaultValue,
  graphemeLength,
  parseCombinePattern,
  slugify,
  truncateText,
} from './transforms/strings';
import { constantCell } from './transforms/text';

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
    if (m.empty === true && (m.dataColumn || chainOf(m).length > 0)) {
      throw new MappingError(
        `"${m.templateColumn}" is left empty on purpose: send it without a data column and transform, or drop "empty".`,
      );
    }
    const chain = chainOf(m);
    if (m.empty !== true && !m.dataColumn && !OWN_COLUMNS.has(chain[0]?.kind)) {
      throw new MappingError(
        `"${m.templateColumn}" has no data column: choose one, or leave the column empty on purpose ("empty": true).`,
      );
    }
    chain.forEach((t, k) => {
      if (typeof t !== 'object' || t === null) {
        throw new MappingError(`The transform for "${m.templateColumn}" must be an object with a kind.`);
      }
      if (k > 0 && FIRST_ONLY.has(t.kind)) {
        throw new MappingError(
          `"${t.kind}" for "${m.templateColumn}" reads the data column itself: it must be the first transform of the chain.`,
        );
      }
      validateStep(t, m.templateColumn);
    });
  }
}

/** The contract's MAX_CHAIN (the engine reads the contract as types only). */
const MAX_CHAIN = 10;

/** Transforms that read the data column(s) themselves: only first in a chain. */
const FIRST_ONLY = new Set([
  'date',
  'number',
  'amount',
  'boolean',
  'debitCredit',
  'constant',
  'combine',
  'coalesce',
]);
/** First transforms that read their own columns (or none): their pair needs no dataColumn. */
const OWN_COLUMNS = new Set<string | undefined>(['constant', 'debitCredit', 'combine', 'coalesce']);
/** Transforms that make a column a chain op even alone. */
const TEXT_STEPS = new Set([
  'combine',
  'split',
  'mapValues',
  'default',
  'slug',
  'truncate',
  'replace',
  'coalesce',
]);

/** A pair's transforms as a list (one transform is a chain of one). */
export function chainOf(m: MappingPair): Transform[] {
  const t = m.transform;
  if (t === undefined || t === null) return [];
  if (Array.isArray(t)) {
    if (t.length > MAX_CHAIN) {
      throw new MappingError(`The chain for "${m.templateColumn}" has more than ${MAX_CHAIN} transforms.`);
    }
    return t;
  }
  return [t];
}

/** A chain with a text step derives a value (a slug of the title, a part of a name): its column may feed others too. */
function derived(chain: readonly Transform[]): boolean {
  return chain.some((t) => TEXT_STEPS.has(t.kind));
}

/**
 * The data columns a pair reads, and whether it reads them alone: a derived value (split, slug, combine…)
 * may share its column with other pairs; every other pair claims its column.
 */
export function pairSources(m: MappingPair): { columns: string[]; exclusive: boolean } {
  if (m.empty === true) return { columns: [], exclusive: false };
  const first = chainOf(m)[0];
  if (first?.kind === 'constant') return { columns: [], exclusive: false };
  if (first?.kind === 'debitCredit')
    return { columns: [first.debitColumn, first.creditColumn], exclusive: true };
  if (first?.kind === 'combine') {
    const cols = parseCombinePattern(first.pattern, m.templateColumn).cols;
    return { columns: [...new Set(cols)], exclusive: false };
  }
  if (first?.kind === 'coalesce') {
    return { columns: [...new Set(checkCoalesce(first.columns, m.templateColumn))], exclusive: false };
  }
  return { columns: m.dataColumn ? [m.dataColumn] : [], exclusive: !derived(chainOf(m)) };
}

/** Does this mapping need the sequential row loop (a chain, rules, a patch)? */
export function needsSequential(mappings: readonly MappingPair[], o: ApplyOptions): boolean {
  if (o.patch !== undefined) return true;
  if (o.templateRules !== undefined && Object.keys(o.templateRules).length > 0) return true;
  return mappings.some(
    (m) => Array.isArray(m.transform) || (m.transform && TEXT_STEPS.has(m.transform.kind)),
  );
}

function validateStep(t: Transform, column: string): void {
  switch (t.kind) {
    case 'date':
      if (typeof t.output !== 'string' || !isValidPattern(t.output)) {
        throw new MappingError(`The date output pattern for "${column}" must use YYYY, YY, MM, M, DD or D.`);
      }
      // The mapping arrives as JSON: anything but a text pattern (a number, an object) is a bad request.
      if (
        t.input !== undefined &&
        (typeof t.input !== 'string' || (t.input !== 'auto' && !patternOrder(t.input)))
      ) {
        throw new MappingError(
          `The date input pattern for "${column}" must hold a day, a month and a year, e.g. DD/MM/YYYY.`,
        );
      }
      break;
    case 'number':
    case 'amount':
      checkDecimals(t.decimals, column);
      checkSign(t, column);
      break;
    case 'debitCredit':
      checkDecimals(t.decimals, column);
      break;
    case 'boolean':
      if (!Array.isArray(t.output) || t.output.length !== 2 || t.output.some((s) => typeof s !== 'string')) {
        throw new MappingError(`The boolean output for "${column}" must be two texts, e.g. ["Yes", "No"].`);
      }
      break;
    case 'constant':
      if (typeof t.value !== 'string') throw new MappingError(`The constant for "${column}" must be text.`);
      break;
    case 'trim':
    case 'upper':
    case 'lower':
    case 'slug':
      break;
    case 'combine':
      if (typeof t.pattern !== 'string')
        throw new MappingError(`The combine pattern for "${column}" must be text.`);
      parseCombinePattern(t.pattern, column);
      break;
    case 'split':
      compileSplit(t, column);
      break;
    case 'mapValues':
      compileMapValues(t, column);
      break;
    case 'default':
      if (typeof t.value !== 'string') throw new MappingError(`The default for "${column}" must be text.`);
      break;
    case 'truncate':
      if (!Number.isInteger(t.length) || t.length < 1) {
        throw new MappingError(`Truncate for "${column}" needs a length: a whole number, 1 or more.`);
      }
      break;
    case 'replace':
      compileReplace(t.find, t.replace, t.regex === true, column);
      break;
    case 'coalesce':
      checkCoalesce(t.columns, column);
      break;
    default:
      throw new MappingError(`Unknown transform "${(t as { kind: string }).kind}" for "${column}".`);
  }
}

export function validateApplyOptions(o: ApplyOptions): void {
  if (o.maxRows !== undefined && (!Number.isInteger(o.maxRows) || o.maxRows < 0)) {
    throw new OptionsError('maxRows must be a whole number, 0 or more.');
  }
  if (o.delimiter !== undefined && !DELIMITERS.some((d) => d === o.delimiter)) {
    throw new OptionsError('The output delimiter must be comma, semicolon, tab or pipe.');
  }
  if (o.lineEnding !== undefined && o.lineEnding !== '\r\n' && o.lineEnding !== '\n') {
    throw new OptionsError('lineEnding must be "\\r\\n" or "\\n".');
  }
  if (o.encoding !== undefined && o.encoding !== 'utf-8' && o.encoding !== 'windows-1252') {
    throw new OptionsError('The output encoding must be utf-8 or windows-1252.');
  }
  if (o.quoteStyle !== undefined && o.quoteStyle !== 'minimal' && o.quoteStyle !== 'all') {
    throw new OptionsError('quoteStyle must be "minimal" or "all".');
  }
  if (o.threads !== undefined && (!Number.isInteger(o.threads) || o.threads < 1)) {
    throw new OptionsError('threads must be a whole number, 1 or more.');
  }
}

/** What compilePlan reads and where it reports (the mapping run). */
export interface PlanInput {
  readonly templateHeaders: readonly string[];
  readonly mappings: readonly MappingPair[];
  readonly options: ApplyOptions;
  /** Output delimiter and formula protection: a constant's cell is written once, here. */
  readonly delim: number;
  readonly protect: boolean;
  readonly required: ReadonlySet<string>;
  /** The inference pass's decisions, by data column. */
  readonly decided: ReadonlyMap<number, Decided>;
  /** Control totals and inference reports are listed here, in template column order. */
  readonly stats: ApplyStats;
  warn(row: number, column: string, value: string, reason: string): void;
}

/** The plan for a file with this header. Throws MappingError for a mapped column the file lacks. */
export function compilePlan(info: SourceInfo, p: PlanInput): Op[] {
  const byTemplate = new Map(p.mappings.map((m) => [m.templateColumn, m]));
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
  const hint = p.options.locale?.decimalSeparator ?? (info.delimiter === ';' ? ',' : '.');
  const addTotal = (op: Op, kind: ControlTotal['kind'], sourceColumns: string[]): void => {
    p.stats.controlTotals.push(attachTotal(op, kind, sourceColumns));
  };
  const addInference = (column: string, dataColumn: string, src: number): void => {
    const d = p.decided.get(src);
    if (!d) return;
    const { inference, warnings } = describeDecision(column, dataColumn, d);
    p.stats.inferred.push(inference);
    for (const w of warnings) p.warn(0, column, '', w);
  };

  /** Sets op up for one byte-level transform (or a plain copy) of m's data column. */
  const single = (op: Op, m: MappingPair, t: Transform | undefined, exclusive: boolean): void => {
    const column = op.column;
    if (t?.kind === 'constant') {
      op.kind = OP_CONST;
      op.bytes = constantCell(t.value, p.delim, p.protect);
      return;
    }
    if (t?.kind === 'debitCredit') {
      op.kind = OP_DEBIT_CREDIT;
      op.src = columnIndex(info, t.debitColumn, column);
      op.src2 = columnIndex(info, t.creditColumn, column);
      if (op.src === op.src2)
        throw new MappingError(`Debit and credit for "${column}" must be two different columns.`);
      claim(op.src, column);
      claim(op.src2, column);
      op.mode = 'amount';
      op.dec = p.decided.get(op.src)?.decimal ?? hint.charCodeAt(0);
      op.dec2 = p.decided.get(op.src2)?.decimal ?? hint.charCodeAt(0);
      op.decimals = t.decimals ?? 2;
      op.sign = t.sign === 'debitPositive' ? -1 : 1;
      addTotal(op, 'debitCredit', [t.debitColumn, t.creditColumn]);
      addInference(column, t.debitColumn, op.src);
      addInference(column, t.creditColumn, op.src2);
      return;
    }
    op.src = columnIndex(info, m.dataColumn, column);
    if (exclusive) claim(op.src, column);
    if (!t) {
      op.kind = OP_COPY;
      return;
    }
    switch (t.kind) {
      case 'date': {
        op.kind = OP_DATE;
        op.parts = compileOutput(t.output);
        const fixed = t.input && t.input !== 'auto' ? patternOrder(t.input) : null;
        op.order = fixed?.order ?? p.decided.get(op.src)?.dateOrder ?? 'MDY';
        op.widths = fixed?.widths ?? null;
        op.dateNeedsCell = dateNeedsCell(t.output, p.delim);
        if (!fixed) addInference(column, m.dataColumn, op.src);
        break;
      }
      case 'number':
      case 'amount': {
        op.kind = OP_NUMBER;
        op.mode = t.kind;
        const fixed = t.decimalSeparator === '.' || t.decimalSeparator === ',' ? t.decimalSeparator : null;
        op.dec = fixed ? fixed.charCodeAt(0) : (p.decided.get(op.src)?.decimal ?? hint.charCodeAt(0));
        op.decimals = t.kind === 'amount' ? (t.decimals ?? 2) : (t.decimals ?? -1);
        op.parentheses = t.kind === 'amount' && t.negative === 'parentheses';
        compileSign(op, t, info, p.mappings, (other) => (other === m ? [] : pairSources(other).columns));
        addTotal(op, t.kind, [m.dataColumn]);
        if (!fixed) addInference(column, m.dataColumn, op.src);
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
      default:
        op.kind = OP_COPY;
    }
  };

  const rulesOf = p.options.templateRules ?? {};
  const empty = p.templateHeaders.filter((h) => byTemplate.get(h)?.empty === true);
  if (empty.length > 0) p.stats.emptyColumns = empty;
  return p.templateHeaders.map((column) => {
    const op = newOp(column);
    const r = rulesOf[column];
    op.required = p.required.has(column) || r?.required === true;
    op.rules = r ? compileRules(r, column) : null;
    const m = byTemplate.get(column);
    const steps = m ? chainOf(m) : [];
    const first = steps[0] as Transform | undefined;
    // Rules alone keep the byte op: the row loop checks the cell it wrote (rules.ts checkBytes).
    const isChain = steps.length > 1 || (first !== undefined && TEXT_STEPS.has(first.kind));
    if (!m || m.empty === true) return op;
    if (!isChain) {
      single(op, m, first, true);
      op.numberMeetsRules = numberMeetsRules(op);
      return op;
    }
    // A chain: its first value, then the text steps.
    const chain = newChain();
    op.kind = OP_CHAIN;
    op.chain = chain;
    let rest = steps;
    if (first?.kind === 'combine') {
      const pattern = parseCombinePattern(first.pattern, column);
      chain.source = SRC_COMBINE;
      chain.combine = pattern;
      chain.combineSrc = pattern.cols.map((c) => columnIndex(info, c, column));
      chain.litBytes = pattern.lits.map((l) => Buffer.from(l, 'utf8'));
      chain.litQuote = pattern.lits.some((l) => l.includes('"'));
      const delim = String.fromCharCode(p.delim);
      chain.litSpecial = pattern.lits.some((l) => l.includes(delim) || /[\r\n]/.test(l));
      rest = steps.slice(1);
      if (rest.length === 0) op.kind = OP_COMBINE;
    } else if (first?.kind === 'coalesce') {
      chain.source = SRC_COALESCE;
      chain.combineSrc = checkCoalesce(first.columns, column).map((c) => columnIndex(info, c, column));
      rest = steps.slice(1);
    } else if (first?.kind === 'constant') {
      chain.source = SRC_CONSTANT;
      chain.constant = first.value;
      rest = steps.slice(1);
    } else if (first !== undefined && BYTE_FIRST.has(first.kind)) {
      const inner = newOp(column);
      single(inner, m, first, !derived(steps));
      chain.source = SRC_INNER;
      chain.inner = inner;
      op.src = inner.src;
      rest = steps.slice(1);
    } else {
      op.src = columnIndex(info, m.dataColumn, column);
      if (!derived(steps)) claim(op.src, column);
      chain.source = SRC_CONTENT;
    }
    chain.steps = rest.map((t) => compileStep(t, column));
    return op;
  });
}

/**
 * Does every number this op writes pass its column's rules? writeNumber writes [-]digits[.digits] or
 * (digits[.digits]): always an amount, and a number unless in parentheses. Then the row loop checks only
 * the values the transform could not read (written as they came).
 */
function numberMeetsRules(op: Op): boolean {
  const c = op.rules;
  if (op.kind !== OP_NUMBER || c === null) return false;
  if (c.maxLength > 0 || c.allowed !== null || c.unique !== null) return false;
  return c.type === 'amount' || (c.type === 'number' && !op.parentheses);
}

/** Byte transforms that can start a chain (run into the chain's scratch sink). */
const BYTE_FIRST = new Set(['date', 'number', 'amount', 'boolean', 'debitCredit']);

/** One text step of a chain. */
function compileStep(t: Transform, column: string): Step {
  switch (t.kind) {
    case 'trim':
      return (v) => v.trim();
    case 'upper':
      return (v) => v.toUpperCase();
    case 'lower':
      return (v) => v.toLowerCase();
    case 'slug':
      return (v) => slugify(v);
    case 'default': {
      const value = t.value;
      return (v) => defaultValue(v, value);
    }
    case 'split': {
      const f = compileSplit(t, column);
      return (v) => f(v);
    }
    case 'mapValues': {
      const f = compileMapValues(t, column);
      return (v) => f(v);
    }
    case 'truncate': {
      const length = t.length;
      return (v, warn) => {
        const cut = truncateText(v, length);
        if (cut !== v) warn('truncate', v, `Cut to ${length} characters (it had ${graphemeLength(v)})`);
        return cut;
      };
    }
    case 'replace': {
      const f = compileReplace(t.find, t.replace, t.regex === true, column);
      return (v, warn) => {
        const out = f(v);
        if (out !== null) return out;
        warn(undefined, v.slice(0, 100), 'Too long for the regular expression: left unchanged');
        return v;
      };
    }
    default:
      throw new MappingError(`"${t.kind}" for "${column}" must be the first transform of the chain.`);
  }
}
