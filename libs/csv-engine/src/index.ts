// @csv-mapper/csv-engine — the streaming CSV engine: sniff, parse, transform and write.
// Pure TypeScript (Node built-ins only); no framework, database, queue or repo imports.
//
// Reading
//   inspect(input, options?)            → Promise<InspectResult>  whole input, e.g. a stored upload
//   new CsvInspector(options?)          push(chunk) / end() → InspectResult; for bytes as they arrive
//   createInspectStream(options?)       { stream: Transform (pass-through), result: Promise<InspectResult> }
//   parseCsv(bytes | chunks, options?)  → ParseResult (strings; small data)
//   ReadOptions: encoding, delimiter, headerRow (1-based line), header, maxFieldBytes (1 MB) …
// Mapping (ARCHITECTURE §4)
//   applyMapping(input, templateHeaders, mappings, options?) → { output: Readable, stats: Promise<ApplyStats> }
//   applyMappingToBuffer(...)           → Promise<{ data: Buffer, stats: ApplyStats }>
//   ApplyOptions.threads: 2             a worker thread maps part of every chunk (same bytes and stats)
//   previewMapping(input, templateHeaders, mappings, { rows })  → Promise<{ headers, rows, stats }>
//   Types: MappingPair, Transform (discriminated on `kind`), ApplyOptions, ApplyStats, Warning, ControlTotal
// Workbooks (.xlsx)
//   detectFormat(head) 'zip' | 'ole' | 'text'; oleError(head) → the .xls / password-protected error
//   inspectWorkbook(open, { sheet?, limits? }) → { sheets, sheet, inspection }  (open: re-opens the file)
//   workbookCsv(open, { sheet, limits }) → AsyncIterable<Buffer> of CSV text for applyMapping & co.
// Writing
//   resolveOutputOptions(options, templateFormat) → the settings used ("match the template" by default)
//   runTotals(stats, rowsInFile, limit)  → control totals (rows read/written/skipped, sums per column)
//   inferColumnTransform(values)         → the transform a column's values suggest (dates, amounts, …)
//   writeCsv(rows, { delimiter, lineEnding, formulaProtection }) → string (RFC 4180, OWASP guard)
// Errors
//   CsvEngineError { code, message, line?, status } and subclasses; codes: BINARY_FILE (415),
//   UNTERMINATED_QUOTE, FIELD_TOO_LARGE, ROW_TOO_LARGE, TOO_MANY_COLUMNS, EMPTY_HEADER, EMPTY_FILE,
//   INVALID_ENCODING, INVALID_MAPPING, INVALID_OPTIONS (400).

export {
  CsvEngineError,
  BinaryFileError,
  UnterminatedQuoteError,
  FieldTooLargeError,
  RowTooLargeError,
  TooManyColumnsError,
  EmptyHeaderError,
  EmptyFileError,
  InvalidEncodingError,
  MappingError,
  OptionsError,
  UnsupportedWorkbookError,
  InvalidWorkbookError,
  WorkbookTooLargeError,
  isCsvEngineError,
  type CsvErrorCode,
} from './errors';
export { INPUT_ENCODINGS, type InputEncoding, type OutputEncoding } from './encoding';
export { DELIMITERS, type Delimiter } from './sniff';
export { booleanWord, FALSE_WORDS, PLAIN_BOOLEAN_WORDS, TRUE_WORDS, WEAK_BOOLEAN_WORDS } from './booleans';
export { DEFAULT_MAX_FIELD_BYTES } from './parser';
export type { ReadOptions, SourceInfo, DuplicateHeader } from './reader';
export {
  CsvInspector,
  createInspectStream,
  inspect,
  type InspectOptions,
  type InspectResult,
  type FirstLine,
  type InspectedColumn,
  type RaggedRow,
} from './inspect';
export {
  detectFormat,
  oleError,
  inspectWorkbook,
  workbookCsv,
  sourceChunks,
  DEFAULT_WORKBOOK_LIMITS,
  type SourceSpec,
  type FileOpener,
  type WorkbookLimits,
  type SheetSummary,
  type SourceFormat,
  type WorkbookInspection,
} from './xlsx';
export { parseCsv, type ParseResult } from './parse';
export {
  applyMapping,
  applyMappingToBuffer,
  validateMappings,
  type ApplyResult,
  type CsvInput,
} from './mapping';
export { chainOf, pairSources } from './mapping/compile';
export {
  checkValue,
  compileRules,
  validateTemplateRules,
  UNIQUE_MAX_VALUES,
  type CompiledRules,
} from './mapping/rules';
export {
  combineValues,
  graphemeLength,
  parseCombinePattern,
  slugify,
  splitCityStateZip,
  splitPersonName,
  truncateText,
} from './mapping/transforms/strings';
export { previewMapping, type PreviewOptions, type PreviewResult } from './preview';
export { writeCsv, type WriteOptions, type LineEnding } from './writer';
export { resolveOutputOptions, runTotals, writeOptionsOf, type TemplateFormat } from './output';
export { inferColumnTransform, inferColumnTransforms } from './mapping/column-kinds';
export type { DateOrder } from './dates';
export { RowHmac } from './history/hmac';
export { BUCKETS, bucketOf, FingerprintCollector, FingerprintSet, RowHistory } from './history/set';
// The mapping contract's types (re-exported from @csv-mapper/contracts), options and statistics.
export type * from './types';
