// The mapping contract (ARCHITECTURE §4) as types. These names are imported across the repo from
// `@csv-mapper/csv-engine`: keep them stable.
import type { OutputEncoding } from './encoding';
import type { DateOrder } from './dates';
import type { ReadOptions, SourceInfo } from './reader';
import type { LineEnding } from './writer';

/** `date`: patterns use YYYY YY MM M DD D and any separators. `input` defaults to 'auto' (per column). */
export interface DateTransform {
  kind: 'date';
  input?: 'auto' | string;
  output: string;
}

/** `number`: `1.234,56` → `1234.56`; thousands separators removed; `decimals` rounds (half away from zero). */
export interface NumberTransform {
  kind: 'number';
  decimalSeparator?: 'auto' | '.' | ',';
  decimals?: number;
}

/** `amount`: strips currency symbols/codes; (12.50), 12.50-, 12.50 DR → -12.50; 12.50 CR → 12.50. */
export interface AmountTransform {
  kind: 'amount';
  /** Default 2. */
  decimals?: number;
  /** How negatives are written. Default 'minus'. */
  negative?: 'minus' | 'parentheses';
  /** Default 'auto' (decided per column). */
  decimalSeparator?: 'auto' | '.' | ',';
}

/** `boolean`: yes/no, y/n, true/false, 1/0, on/off, ja/nein, oui/non, si/no, x/blank… → the chosen pair. */
export interface BooleanTransform {
  kind: 'boolean';
  output: [trueText: string, falseText: string];
}

/**
 * `debitCredit`: one signed amount from two columns (each read like `amount`, decimal separator detected per
 * column). The pair's dataColumn may be empty. Each side counts by its size: a debit is money out whatever
 * sign it was written with.
 */
export interface DebitCreditTransform {
  kind: 'debitCredit';
  debitColumn: string;
  creditColumn: string;
  /** Default 'creditPositive': credit − debit. */
  sign?: 'creditPositive' | 'debitPositive';
  /** Default 2. */
  decimals?: number;
}

/** `constant`: fills the column with a fixed value (dataColumn may be empty). */
export interface ConstantTransform {
  kind: 'constant';
  value: string;
}

export interface TextTransform {
  kind: 'trim' | 'upper' | 'lower';
}

/** Discriminated on `kind`. */
export type Transform =
  | DateTransform
  | NumberTransform
  | AmountTransform
  | BooleanTransform
  | DebitCreditTransform
  | ConstantTransform
  | TextTransform;

export type TransformKind = Transform['kind'];

/** One template column fed by one data column (the spec's pair plus an optional transform). */
export interface MappingPair {
  templateColumn: string;
  /** Header of the source column as reported by inspect (after `Name (2)` disambiguation). */
  dataColumn: string;
  transform?: Transform;
}

/**
 * A value that could not be read, a required value that is empty, or a ragged row.
 * `row` is the 1-based data row (the first row after the header is 1); 0 means the whole column
 * (e.g. "dates are ambiguous"). `column` is the template column ('' for a whole-row report).
 */
export interface Warning {
  row: number;
  column: string;
  value: string;
  reason: string;
}

/** The file's locale, used when a column alone cannot decide (all dates ≤ 12/12, only "1,234"-like values). */
export interface LocaleHint {
  /** Default: 'DMY' when the file uses a decimal comma, else 'MDY'. */
  dateOrder?: 'DMY' | 'MDY';
  /** Default: ',' when the file is semicolon-delimited or another column uses a decimal comma, else '.'. */
  decimalSeparator?: '.' | ',';
}

export interface ApplyOptions {
  /** How to read the input (encoding, delimiter, headerRow overrides and limits). */
  input?: ReadOptions;
  /** Stop after this many data rows; `truncated` says whether more were there. */
  maxRows?: number;
  /** ARCHITECTURE §4 formula-injection rule. Default true. */
  formulaProtection?: boolean;
  /** Output delimiter. Default ','. */
  delimiter?: ',' | ';' | '\t' | '|';
  /** Default '\r\n' (RFC 4180). */
  lineEnding?: LineEnding;
  /** Write a UTF-8 byte order mark (for Excel). Default false; ignored for windows-1252. */
  bom?: boolean;
  /** Output encoding. Default 'utf-8'. Characters Windows-1252 lacks become '?' (counted in stats). */
  encoding?: OutputEncoding;
  /** Template columns that must not be empty; each empty one is reported per row. */
  required?: readonly string[];
  locale?: LocaleHint;
  /** Warnings kept in stats.warnings (all are counted). Default 100. */
  maxWarnings?: number;
  /** Data rows sampled to infer date order and decimal separators per column. Default 10,000. */
  inferenceRows?: number;
  /** Write the template header row. Default true. */
  header?: boolean;
  /**
   * Threads to map with. Default 1. With 2, a worker thread maps part of every input chunk while this
   * one maps the rest (same bytes, same stats, in less time on a machine with a free core).
   */
  threads?: number;
  /** Called after each input chunk, e.g. for job progress. */
  onProgress?(progress: { rowsIn: number; bytesIn: number }): void;
}

/** Sums of a numeric column, so a bookkeeper can see nothing was lost. */
export interface ControlTotal {
  /** Template column. */
  column: string;
  kind: 'amount' | 'number' | 'debitCredit';
  /** Data column(s) read (debit then credit for debitCredit). */
  sourceColumns: string[];
  /** Sum of the values read from the source (credit − debit for debitCredit), before rounding. */
  sourceTotal: string;
  /** Sum of the values written. */
  outputTotal: string;
  /** Values read (non-empty, readable). */
  values: number;
  /** Values that could not be read and were passed through unchanged (not in either sum). */
  unreadable: number;
}

/** What was decided for a column read with `auto`. */
export interface ColumnInference {
  /** Template column. */
  column: string;
  dataColumn: string;
  dateOrder?: DateOrder;
  decimalSeparator?: '.' | ',';
  /** True when the sample could not decide and the locale hint was used. */
  fromLocale: boolean;
}

export interface ApplyStats {
  /** Data rows read. */
  rowsIn: number;
  /** Data rows written. */
  rowsOut: number;
  /** maxRows was reached and the file had more rows. */
  truncated: boolean;
  /** The first `maxWarnings` warnings. */
  warnings: Warning[];
  /** All warnings, including those not kept. */
  warningCount: number;
  controlTotals: ControlTotal[];
  /** Empty required values (each also a warning). */
  requiredMissing: number;
  /** Rows whose field count differed from the header (padded or truncated; each also a warning). */
  raggedRows: number;
  /** Characters written as '?' because Windows-1252 cannot hold them. */
  unmappableCharacters: number;
  inferred: ColumnInference[];
  source: SourceInfo;
}

export type { ReadOptions, SourceInfo };
