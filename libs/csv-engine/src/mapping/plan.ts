// The compiled mapping: one Op per template column, which the row loop runs left to right. Every Op has
// the same shape whatever its kind (the fields of all families, unused ones at their defaults), so the
// row loop's `op.kind` and field loads stay monomorphic.
import { MappingError } from '../errors';
import type { DateOrder } from '../dates';
import type { NumberMode } from '../numbers';
import type { SourceInfo } from '../reader';
import type { ControlTotal } from '../types';
import type { ChainPlan } from './chain';
import type { CompiledRules } from './rules';
import type { DecimalSum } from './totals';

// Declared locally and exported in a list (see parser.ts): uses stay constants, not `exports.X` loads.
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
/** A text chain (issue 22's transforms) and/or a column with rules: the cell is worked on as a string. */
const OP_CHAIN = 10;
/** A combine and nothing after it: joined on bytes (transforms/combine.ts), no text decoded. */
const OP_COMBINE = 11;

export {
  OP_EMPTY,
  OP_COPY,
  OP_CONST,
  OP_DATE,
  OP_NUMBER,
  OP_BOOL,
  OP_DEBIT_CREDIT,
  OP_TRIM,
  OP_UPPER,
  OP_LOWER,
  OP_CHAIN,
  OP_COMBINE,
};

export interface Op {
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
  /** Sign from a direction column (transforms/sign.ts): its index (-1: none) and the money-out values. */
  signSrc: number;
  signNeg: Buffer[];
  signNegText: string[];
  /** Flip the sign of every value (after signSrc). */
  invert: boolean;
  /** signSrc >= 0 || invert: one test on the hot path. */
  signed: boolean;
  /**
   * The other side of a debit/credit pair named like this op's data column, when no pair reads it (-1:
   * none): an empty cell here while it has a value is a row warning, not a silent blank.
   */
  partner: number;
  total: ControlTotal | null;
  srcSum: DecimalSum | null;
  outSum: DecimalSum | null;
  // constant / boolean
  bytes: Buffer;
  trueBytes: string;
  falseBytes: string;
  // chain and rules
  chain: ChainPlan | null;
  rules: CompiledRules | null;
  /** A number op whose rules are only a type that every number it writes meets (see compile.ts). */
  numberMeetsRules: boolean;
}

export function newOp(column: string): Op {
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
    signSrc: -1,
    signNeg: [],
    signNegText: [],
    invert: false,
    signed: false,
    partner: -1,
    total: null,
    srcSum: null,
    outSum: null,
    bytes: Buffer.alloc(0),
    trueBytes: '',
    falseBytes: '',
    chain: null,
    rules: null,
    numberMeetsRules: false,
  };
}

/** Index of a mapped data column in the file's header. */
export function columnIndex(info: SourceInfo, name: string, template: string): number {
  const k = info.headers.indexOf(name);
  if (k < 0) {
    throw new MappingError(`"${name}" (mapped to "${template}") is not a column of the data file.`);
  }
  return k;
}
