import { Transform as Coerce, Type } from 'class-transformer';
import type { WarningRule } from './rules';
// The engine's delimiter list, read by path (it imports nothing; the web app resolves only the contract).
import { DELIMITERS } from '../../csv-engine/src/delimiters';
import {
  ValidateBy,
  ArrayMaxSize,
  ArrayMinSize,
  Equals,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
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
  'combine',
  'split',
  'mapValues',
  'default',
  'slug',
  'truncate',
  'replace',
  'coalesce',
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

/** Values of a direction column that one `sign` may list as money out. */
export const SIGN_VALUES_MAX = 20;
const SIGN_SHAPE = 'sign must be an object like { "column": "Af Bij", "negative": ["Af"] }';

/**
 * The sign of an amount taken from another column of the row (a direction column: `Af`/`Bij`, `D`/`C`,
 * `S`/`H`, `DR`/`CR`, `Debit`/`Credit`…). Values are compared trimmed and case-insensitively.
 */
export class SignFromColumn {
  /**
   * The data column that holds the direction.
   * @example "Af Bij"
   */
  @IsString()
  @IsNotEmpty({
    message: 'sign.column is empty: name the data column that says money in or out, like "Af Bij"',
  })
  @MaxLength(COLUMN_MAX)
  column: string;
  /**
   * The values of that column that mean money out: those rows get a negative amount whatever sign the
   * amount was written with. Any other non-empty value gives a positive amount; an empty cell keeps the
   * sign as written.
   * @example ["Af"]
   */
  @IsArray({ message: 'sign.negative must be a list of the values that mean money out, like ["Af"]' })
  @ArrayMinSize(1, {
    message:
      'sign.negative is empty: list the values of the column that mean money out, like ["Af"] or ["D", "DR"]',
  })
  @ArrayMaxSize(SIGN_VALUES_MAX)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  negative: string[];
}

/** What `number` and `amount` take for the sign besides the value's own: a direction column, a flip. */
export abstract class SignOptions {
  /** Take the sign from a direction column (see SignFromColumn). */
  @IsOptional()
  @IsObject({ message: SIGN_SHAPE })
  @ValidateNested()
  @Type(() => SignFromColumn)
  sign?: SignFromColumn;
  /** Flip the sign of every value (applied last): card exports that list charges as positive numbers. */
  @IsOptional() @IsBoolean() invert?: boolean;
}

/** `number`: `1.234,56` → `1234.56`; thousands separators removed; `decimals` rounds (half away from zero). */
export class NumberTransform extends SignOptions {
  @Equals('number') kind: 'number';
  @IsOptional() @IsIn(['auto', '.', ',']) decimalSeparator?: 'auto' | '.' | ',';
  @IsOptional() @IsInt() @Min(0) @Max(10) decimals?: number;
}

/** `amount`: strips currency symbols/codes; (12.50), 12.50-, 12.50 DR → -12.50; 12.50 CR → 12.50. */
export class AmountTransform extends SignOptions {
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

/**
 * `combine`: several data columns into one, e.g. `{First Name} {Last Name}`. `{` and `}` in the text
 * are written `{{` and `}}`. Blank parts are dropped with the separator before them, and doubled
 * separators (spaces, commas) collapse. The pair's dataColumn may be empty. Must be first in a chain.
 */
export class CombineTransform {
  @Equals('combine') kind: 'combine';
  /** @example "{First Name} {Last Name}" */
  @IsString()
  @IsNotEmpty({
    message:
      'the combine pattern is empty: write the data columns to join in braces, like {First Name} {Last Name}',
  })
  @MaxLength(1000)
  pattern: string;
}

export const SPLIT_PRESETS = ['personName', 'cityStateZip'] as const;
export const SPLIT_PRESET_PARTS = ['first', 'last', 'city', 'state', 'zip'] as const;
export type SplitPresetPart = (typeof SPLIT_PRESET_PARTS)[number];

const IsSplitPart = () =>
  ValidateBy({
    name: 'isSplitPart',
    validator: {
      validate: (v: unknown, args) => {
        const preset = (args?.object as { preset?: unknown }).preset;
        if (preset === undefined) return Number.isInteger(v) && Math.abs(v as number) <= 1000;
        return typeof v === 'string' && (SPLIT_PRESET_PARTS as readonly string[]).includes(v);
      },
      defaultMessage: () =>
        `split.part must be a whole number (0 = first part, -1 = last) with a separator, or one of ${SPLIT_PRESET_PARTS.join(', ')} with a preset`,
    },
  });

/**
 * `split`: one part of a data column — by `separator` with `part` counted from 0 (negative from the
 * end), or by a named `preset`: personName (first/last; titles and suffixes such as Dr. and Jr. dropped,
 * particles such as "de la" kept with the last name) or cityStateZip ("City, ST 12345").
 * A data column may feed several split pairs.
 */
export class SplitTransform {
  @Equals('split') kind: 'split';
  @IsOptional()
  @IsString()
  @IsNotEmpty({
    message: 'the split separator is empty: write the text between the parts (a comma, a space, a dash…)',
  })
  @MaxLength(20)
  separator?: string;
  @IsOptional() @IsIn(SPLIT_PRESETS) preset?: (typeof SPLIT_PRESETS)[number];
  @IsSplitPart() part: number | SplitPresetPart;
}

const IsValueTable = () =>
  ValidateBy({
    name: 'isValueTable',
    validator: {
      validate: (v: unknown) =>
        typeof v === 'object' &&
        v !== null &&
        !Array.isArray(v) &&
        Object.keys(v).length <= MAP_VALUES_MAX &&
        Object.entries(v).every(([k, x]) => k.length <= 1000 && typeof x === 'string' && x.length <= 1000),
      defaultMessage: () =>
        `mapValues.table must be an object of text → text with at most ${MAP_VALUES_MAX} entries`,
    },
  });

const IsOtherwise = () =>
  ValidateBy({
    name: 'isOtherwise',
    validator: {
      validate: (v: unknown) =>
        v === 'keep' ||
        v === 'blank' ||
        (typeof v === 'object' &&
          v !== null &&
          Object.keys(v).length === 1 &&
          typeof (v as { value?: unknown }).value === 'string' &&
          (v as { value: string }).value.length <= 1000),
      defaultMessage: () => 'mapValues.otherwise must be "keep", "blank" or { "value": "…" }',
    },
  });

export const MAP_VALUES_MAX = 5000;

/** `mapValues`: from → to. Values not in the table are kept (default), blanked, or set to a fixed value. */
export class MapValuesTransform {
  @Equals('mapValues') kind: 'mapValues';
  /** @example { "Y": "TRUE", "N": "FALSE" } */
  @IsObject() @IsValueTable() table: Record<string, string>;
  @IsOptional() @IsBoolean() caseInsensitive?: boolean;
  @IsOptional() @IsOtherwise() otherwise?: 'keep' | 'blank' | { value: string };
}

/** `default`: this value when the cell is empty (or blank). */
export class DefaultTransform {
  @Equals('default') kind: 'default';
  @IsString() @MaxLength(1000) value: string;
}

/** `slug`: a URL handle — lowercase, ASCII-folded, words joined by hyphens ("Blue Mug!" → "blue-mug"). */
export class SlugTransform {
  @Equals('slug') kind: 'slug';
}

/** `truncate`: at most `length` user-perceived characters (never splits a character); warns when it cuts. */
export class TruncateTransform {
  @Equals('truncate') kind: 'truncate';
  @IsInt() @Min(1) @Max(100000) length: number;
}

/**
 * `replace`: every occurrence of `find` becomes `replace`. With `regex`, `find` is a regular expression
 * run by a linear-time engine (RE2 syntax: no backreferences or lookaround) and `replace` may use $1…;
 * a hostile pattern cannot hang the run.
 */
export class ReplaceTransform {
  @Equals('replace') kind: 'replace';
  @IsString()
  @IsNotEmpty({ message: 'the text to find is empty: write what should be replaced' })
  @MaxLength(200)
  find: string;
  @IsString() @MaxLength(1000) replace: string;
  @IsOptional() @IsBoolean() regex?: boolean;
}

/** Data columns one coalesce may read. */
export const COALESCE_MAX = 20;

/**
 * `coalesce`: the first non-empty of several data columns, in the order given (e.g. Mobile, then Home
 * Phone, then Work Phone). The pair's dataColumn may be empty. Must be first in a chain.
 */
export class CoalesceTransform {
  @Equals('coalesce') kind: 'coalesce';
  /** @example ["Mobile Phone", "Home Phone", "Work Phone"] */
  @IsArray()
  @ArrayMinSize(1, {
    message:
      'the coalesce list is empty: name the data columns to take the first non-empty value from, like ["Mobile", "Home Phone"]',
  })
  @ArrayMaxSize(COALESCE_MAX)
  @IsString({ each: true })
  @MaxLength(COLUMN_MAX, { each: true })
  columns: string[];
}

/** Steps in one pair's chain. */
export const MAX_CHAIN = 10;

/** Discriminated on `kind`. */
export type Transform =
  | DateTransform
  | NumberTransform
  | AmountTransform
  | BooleanTransform
  | DebitCreditTransform
  | ConstantTransform
  | TextTransform
  | CombineTransform
  | SplitTransform
  | MapValuesTransform
  | DefaultTransform
  | SlugTransform
  | TruncateTransform
  | ReplaceTransform
  | CoalesceTransform;

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
  { name: 'combine', value: CombineTransform },
  { name: 'split', value: SplitTransform },
  { name: 'mapValues', value: MapValuesTransform },
  { name: 'default', value: DefaultTransform },
  { name: 'slug', value: SlugTransform },
  { name: 'truncate', value: TruncateTransform },
  { name: 'replace', value: ReplaceTransform },
  { name: 'coalesce', value: CoalesceTransform },
];

const IsChainSize = () =>
  ValidateBy({
    name: 'isChainSize',
    validator: {
      validate: (v: unknown) => !Array.isArray(v) || (v.length >= 1 && v.length <= MAX_CHAIN),
      defaultMessage: () => `transform may be one transform or a chain of 1 to ${MAX_CHAIN}`,
    },
  });

/** A pair's transform(s) as one list (a single transform is a chain of one). */
export function transformChain(t: Transform | Transform[] | undefined): Transform[] {
  return t === undefined ? [] : Array.isArray(t) ? t : [t];
}

/** One template column fed by one data column (the spec's pair plus an optional transform). */
export class MappingPair {
  /**
   * A column of the template.
   * @example "Variant Price"
   */
  @IsString() @MaxLength(COLUMN_MAX) templateColumn: string;
  /**
   * Header of the source column as reported by the upload (after `Name (2)` disambiguation). May be left
   * out (or '') when the pair is `empty` or its transform reads its own columns (constant, combine,
   * coalesce, debitCredit).
   * @example "CostPrice"
   */
  @Coerce(({ value }: { value: unknown }) => value ?? '')
  @IsString()
  @MaxLength(COLUMN_MAX)
  dataColumn: string = '';
  /** One transform, or several applied in order (e.g. combine → trim → truncate). */
  @IsOptional()
  @IsChainSize()
  @ValidateNested()
  @Type(() => UnknownTransform, {
    keepDiscriminatorProperty: true,
    discriminator: { property: 'kind', subTypes: TRANSFORM_SUBTYPES },
  })
  transform?: Transform | Transform[];
  /**
   * Leave this template column empty on purpose (no dataColumn, no transform): it counts as mapped and
   * every row gets an empty cell.
   */
  @IsOptional() @IsBoolean() empty?: boolean;
}

/** Pairs as a request carries them: at most one per template column (checked against the files). */
export const MAX_PAIRS = 1000;

/** The delimiters an output may be written with: the engine's list. */
export const OUTPUT_DELIMITERS = DELIMITERS;
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

export const READ_ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const;

/** How a data file is read when the detection is overridden (recipes, saved mappings, the CLI). */
export class ReadingOptions {
  @IsOptional() @IsIn(READ_ENCODINGS) encoding?: (typeof READ_ENCODINGS)[number];
  @IsOptional() @IsIn(OUTPUT_DELIMITERS) delimiter?: OutputDelimiter;
  /** 1-based line of the header row; 0: no header row (every record is data, columns `Column 1`…`Column N`). */
  @IsOptional() @IsInt() @Min(0) @Max(1000) headerRow?: number;
}

/**
 * A value that could not be read, a required value that is empty, or a ragged row.
 * `row` is the 1-based data row (the first row after the header is 1); 0 means the whole column
 * (e.g. "dates are ambiguous"). `column` is the template column ('' for a whole-row report).
 */
export class Warning {
  /**
   * 1-based data row of the file; 0 for a note on how a whole column was read (e.g. every date could be
   * day- or month-first, and which was chosen), which concerns no single cell.
   */
  row: number;
  /** Template column ('' for a whole-row problem such as a ragged row). */
  column: string;
  value: string;
  /** What is wrong, for people (the `message` of a rule's warning). */
  reason: string;
  /** Set when a template rule (or a transform that had to change the value) raised it. */
  rule?: WarningRule;
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
  reason: 'rowLimit' | 'monthlyQuota' | 'deletedInReview' | 'alreadyExported';
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
  /** Template columns written empty on purpose (pairs with `empty: true`, or `unmappedColumns: "empty"`). */
  emptyColumns?: string[];
  /**
   * Runs of a saved mapping: rows an earlier run of it exported (found by their fingerprints), skipped,
   * flagged or kept as the mapping's `duplicates` says; 0 for runs without a saved mapping.
   */
  rowsAlreadyExported?: number;
  /** The earlier runs those rows came from, oldest first: `{ runId, at, by: { userId, name }, rows }`. */
  alreadyExportedFrom?: {
    runId: string;
    at: string;
    by: { userId: string; name: string } | null;
    rows: number;
  }[];
}
