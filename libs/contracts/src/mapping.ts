import { Transform as Coerce, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  Equals,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

// The mapping contract (ARCHITECTURE §4): pairs, transforms and output options, as validated at the HTTP
// edge (class-validator, one global ValidationPipe) and read by the engine, the worker and the web app
// (`import type`). The engine checks the meaning (columns exist, patterns parse) and names the column.

export const TRANSFORM_KINDS = [
  'date',
  'number',
  'amount',
  'boolean',
  'debitCredit',
  'constant',
  'trim',
  'upper',
  'lower',
] as const;
export type TransformKind = (typeof TRANSFORM_KINDS)[number];

const PATTERN_MAX = 50;
const COLUMN_MAX = 500;

/** `date`: patterns use YYYY YY MM M DD D and any separators. `input` defaults to 'auto' (per column). */
export class DateTransform {
  @Equals('date') kind: 'date';
  @IsOptional() @IsString() @MaxLength(PATTERN_MAX) input?: 'auto' | string;
  @IsString() @MaxLength(PATTERN_MAX) output: string;
}

/** `number`: `1.234,56` → `1234.56`; thousands separators removed; `decimals` rounds (half away from zero). */
export class NumberTransform {
  @Equals('number') kind: 'number';
  @IsOptional() @IsIn(['auto', '.', ',']) decimalSeparator?: 'auto' | '.' | ',';
  @IsOptional() @IsInt() @Min(0) @Max(10) decimals?: number;
}

/** `amount`: strips currency symbols/codes; (12.50), 12.50-, 12.50 DR → -12.50; 12.50 CR → 12.50. */
export class AmountTransform {
  @Equals('amount') kind: 'amount';
  /** Default 2. */
  @IsOptional() @IsInt() @Min(0) @Max(10) decimals?: number;
  /** How negatives are written. Default 'minus'. */
  @IsOptional() @IsIn(['minus', 'parentheses']) negative?: 'minus' | 'parentheses';
  /** Default 'auto' (decided per column). */
  @IsOptional() @IsIn(['auto', '.', ',']) decimalSeparator?: 'auto' | '.' | ',';
}

/** `boolean`: yes/no, y/n, true/false, 1/0, on/off, ja/nein, oui/non, si/no, x/blank… → the chosen pair. */
export class BooleanTransform {
  @Equals('boolean') kind: 'boolean';
  @IsArray()
  @ArrayMinSize(2)
  @ArrayMaxSize(2)
  @IsString({ each: true })
  @MaxLength(PATTERN_MAX, { each: true })
  output: [trueText: string, falseText: string];
}

/**
 * `debitCredit`: one signed amount from two columns (each read like `amount`, decimal separator detected per
 * column). The pair's dataColumn may be empty. Each side counts by its size: a debit is money out whatever
 * sign it was written with.
 */
export class DebitCreditTransform {
  @Equals('debitCredit') kind: 'debitCredit';
  @IsString() @MaxLength(COLUMN_MAX) debitColumn: string;
  @IsString() @MaxLength(COLUMN_MAX) creditColumn: string;
  /** Default 'creditPositive': credit − debit. */
  @IsOptional() @IsIn(['creditPositive', 'debitPositive']) sign?: 'creditPositive' | 'debitPositive';
  /** Default 2. */
  @IsOptional() @IsInt() @Min(0) @Max(10) decimals?: number;
}

/** `constant`: fills the column with a fixed value (dataColumn may be empty). */
export class ConstantTransform {
  @Equals('constant') kind: 'constant';
  @IsString() @MaxLength(1000) value: string;
}

export class TextTransform {
  @IsIn(['trim', 'upper', 'lower']) kind: 'trim' | 'upper' | 'lower';
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

/** What class-transformer builds when `kind` names no transform: refused with the list of kinds. */
export class UnknownTransform {
  @IsIn(TRANSFORM_KINDS, {
    message: `transform.kind must be one of: ${TRANSFORM_KINDS.join(', ')}`,
    context: { code: 'INVALID_MAPPING' },
  })
  kind: string;
}

const TRANSFORM_SUBTYPES = [
  { name: 'date', value: DateTransform },
  { name: 'number', value: NumberTransform },
  { name: 'amount', value: AmountTransform },
  { name: 'boolean', value: BooleanTransform },
  { name: 'debitCredit', value: DebitCreditTransform },
  { name: 'constant', value: ConstantTransform },
  { name: 'trim', value: TextTransform },
  { name: 'upper', value: TextTransform },
  { name: 'lower', value: TextTransform },
];

/** One template column fed by one data column (the spec's pair plus an optional transform). */
export class MappingPair {
  /**
   * A column of the template.
   * @example "Variant Price"
   */
  @IsString() @MaxLength(COLUMN_MAX) templateColumn: string;
  /**
   * Header of the source column as reported by the upload (after `Name (2)` disambiguation).
   * @example "CostPrice"
   */
  @Coerce(({ value }: { value: unknown }) => value ?? '')
  @IsString()
  @MaxLength(COLUMN_MAX)
  dataColumn: string;
  @IsOptional()
  @ValidateNested()
  @Type(() => UnknownTransform, {
    keepDiscriminatorProperty: true,
    discriminator: { property: 'kind', subTypes: TRANSFORM_SUBTYPES },
  })
  transform?: Transform;
}

/** Pairs as a request carries them: at most one per template column (checked against the files). */
export const MAX_PAIRS = 1000;

export const OUTPUT_DELIMITERS = [',', ';', '\t', '|'] as const;
export const LINE_ENDINGS = ['\r\n', '\n'] as const;

export const QUOTE_STYLES = ['minimal', 'all'] as const;
export type QuoteStyle = (typeof QUOTE_STYLES)[number];
export const OUTPUT_ENCODINGS = ['utf-8', 'windows-1252'] as const;
export type OutputEncodingName = (typeof OUTPUT_ENCODINGS)[number];
export type OutputDelimiter = (typeof OUTPUT_DELIMITERS)[number];
export type OutputLineEnding = (typeof LINE_ENDINGS)[number];

/**
 * How the result is written. By default the result matches the uploaded template file (`matchTemplate`):
 * its delimiter, BOM, line ending and encoding, so it is byte-compatible with it. A field set here wins over
 * the template's; with `matchTemplate: false` (or a built-in template, which has no file) the defaults are
 * comma, CRLF, no BOM, UTF-8. Quotes are minimal and formula protection is on unless set.
 */
export class OutputOptions {
  /** ARCHITECTURE §4 formula-injection rule. Default true. */
  @IsOptional() @IsBoolean() formulaProtection?: boolean;
  /** A UTF-8 byte order mark (for Excel); never written in Windows-1252. */
  @IsOptional() @IsBoolean() bom?: boolean;
  @IsOptional() @IsIn(OUTPUT_DELIMITERS) delimiter?: OutputDelimiter;
  @IsOptional() @IsIn(LINE_ENDINGS) lineEnding?: OutputLineEnding;
  /** 'minimal' (default): quote a cell only when it must be; 'all': quote every cell. */
  @IsOptional() @IsIn(QUOTE_STYLES) quoteStyle?: QuoteStyle;
  /** 'utf-8' or 'windows-1252'; characters Windows-1252 lacks become '?' and are counted. */
  @IsOptional() @IsIn(OUTPUT_ENCODINGS) encoding?: OutputEncodingName;
  /** Take delimiter, BOM, line ending and encoding from the uploaded template file. Default true. */
  @IsOptional() @IsBoolean() matchTemplate?: boolean;
}

/** The output settings a run actually used (after `matchTemplate` and the defaults). */
export class ResolvedOutputOptions {
  delimiter: OutputDelimiter;
  lineEnding: OutputLineEnding;
  bom: boolean;
  encoding: OutputEncodingName;
  quoteStyle: QuoteStyle;
  formulaProtection: boolean;
  /** True when delimiter, BOM, line ending and encoding were taken from the template file. */
  matchedTemplate: boolean;
}

/** Encodings a recipe or saved mapping may name (the upload choices' list, kept here to avoid an import cycle). */
export const READING_ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252', 'iso-8859-1'] as const;

/** How a data file is read when the detection is overridden (recipes, saved mappings, the CLI). */
export class ReadingOptions {
  @IsOptional() @IsIn(READING_ENCODINGS) encoding?: (typeof READING_ENCODINGS)[number];
  @IsOptional() @IsIn(OUTPUT_DELIMITERS) delimiter?: OutputDelimiter;
  /** 1-based line of the header row. */
  @IsOptional() @IsInt() @Min(1) @Max(1000) headerRow?: number;
}

/**
 * A value that could not be read, a required value that is empty, or a ragged row.
 * `row` is the 1-based data row (the first row after the header is 1); 0 means the whole column
 * (e.g. "dates are ambiguous"). `column` is the template column ('' for a whole-row report).
 */
export class Warning {
  row: number;
  column: string;
  value: string;
  reason: string;
}

/** Sums of a numeric column, so a bookkeeper can see nothing was lost. */
export class ControlTotal {
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

/** Rows a run read but did not write, by reason. */
export class SkippedRows {
  reason: 'rowLimit' | 'monthlyQuota';
  rows: number;
  /** For people, e.g. "Rows past your plan's 10,000 rows per file were not written." */
  message: string;
}

/**
 * Control totals of a run, so an accountant can tick them before importing: rows read, written and skipped
 * (with reasons), characters the output encoding lacks, and for every amount/number column the sum read
 * against the sum written (`columns`).
 */
export class RunTotals {
  /** Data rows in the file. */
  rowsInFile: number;
  /** Data rows read and mapped. */
  rowsRead: number;
  rowsWritten: number;
  /** Rows in the file that were not written (rowsInFile − rowsWritten), explained in `skipped`. */
  rowsSkipped: number;
  skipped: SkippedRows[];
  /** Rows with a value that could not be read (written unchanged) or a missing required value. */
  warningCount: number;
  /** Rows whose field count differed from the header (padded or cut; written). */
  raggedRows: number;
  /** Characters written as '?' because the output encoding cannot hold them. */
  unmappableCharacters: number;
  columns: ControlTotal[];
}
