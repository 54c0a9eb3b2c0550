// The engine's options and statistics. The mapping contract itself (pairs, transforms, warnings, control
// totals) is the contract library's; the engine reads it as types only and depends on no repo code at run time.
import type { OutputEncoding } from './encoding';
import type { DateOrder } from './dates';
import type { ReadOptions, SourceInfo } from './reader';
import type { LineEnding } from './writer';
import type { ControlTotal, Corrections, TemplateRules, Warning } from '@csv-mapper/contracts';
import type { RowHistory } from './history/set';

export type {
  Transform,
  TransformKind,
  DateTransform,
  NumberTransform,
  AmountTransform,
  BooleanTransform,
  DebitCreditTransform,
  ConstantTransform,
  TextTransform,
  CombineTransform,
  SplitTransform,
  MapValuesTransform,
  DefaultTransform,
  SlugTransform,
  TruncateTransform,
  ReplaceTransform,
  CoalesceTransform,
  ColumnRules,
  TemplateRules,
  WarningRule,
  Corrections,
  MappingPair,
  Warning,
  ControlTotal,
} from '@csv-mapper/contracts';

/** The file's locale, used when a column alone cannot decide (all dates ≤ 12/12, only "1,234"-like values). */
export interface LocaleHint {
  /** Default: 'DMY' when the file uses a decimal comma or amounts in £ or €, else 'MDY'. */
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
  /** 'minimal' (default): quote a cell only when it must be; 'all': quote every cell, header included. */
  quoteStyle?: 'minimal' | 'all';
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
  /** Rules per template column, checked on every output cell (each failure a warning with its rule). */
  templateRules?: TemplateRules;
  /** Edits and deletions applied while streaming (the review grid's patch); never changes the input. */
  patch?: RowPatch;
  /**
   * A saved mapping's run history: every written row's keyed fingerprint is looked up among earlier runs'
   * and collected; rows found are left out (`skip`), warned about (`flag`, rule alreadyExported) or kept.
   * Maps in one thread.
   */
  history?: RowHistory;
  /** Called after each input chunk, e.g. for job progress. */
  onProgress?(progress: { rowsIn: number; bytesIn: number }): void;
}

/**
 * A review patch: by 1-based data row, template column → the value the output gets (written as is, then
 * checked against the column's rules), and rows left out of the output.
 */
export interface RowPatch {
  edits: ReadonlyMap<number, ReadonlyMap<string, string>>;
  deleted: ReadonlySet<number>;
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
  /** Warnings by rule; `other` counts warnings without a rule (unreadable values, ragged rows). */
  warningsByRule: Record<string, number>;
  /** Set when a patch was applied. */
  corrections?: Corrections;
  /** Template columns written empty on purpose (pairs with `empty: true`). */
  emptyColumns?: string[];
  /** With `history`: rows an earlier run exported (left out, flagged or kept as its mode says). */
  alreadyExported?: number;
}

export type { ReadOptions, SourceInfo };
