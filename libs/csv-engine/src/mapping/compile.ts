// Compiling a mapping: the request-time checks (validateMappings, validateApplyOptions) and, once the
// data file's header is known, the plan — one Op per template column, with its data column(s), the
// transform's settings (fixed or inferred), its control total and its inference report.
import { compileOutput, isValidPattern, patternOrder } from '../dates';
import { MappingError, OptionsError } from '../errors';
import type { SourceInfo } from '../reader';
import type { ApplyOptions, ApplyStats, ControlTotal, MappingPair } from '../types';
import { describeDecision, type Decided } from './inference';
import {
  OP_BOOL,
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
import { attachTotal } from './totals';
import { dateNeedsCell } from './transforms/date';
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

export function validateApplyOptions(o: ApplyOptions): void {
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
  return p.templateHeaders.map((column) => {
    const op = newOp(column);
    op.required = p.required.has(column);
    const m = byTemplate.get(column);
    if (!m) return op;
    const t = m.transform;
    if (t?.kind === 'constant') {
      op.kind = OP_CONST;
      op.bytes = constantCell(t.value, p.delim, p.protect);
      return op;
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
      return op;
    }
    op.src = columnIndex(info, m.dataColumn, column);
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
    }
    return op;
  });
}
