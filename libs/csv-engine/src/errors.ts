// Typed errors of the engine. Every failure a user can cause carries a stable `code` (mapped by the api to a
// 400/415 status) and a message written for the person who uploaded the file, naming what to do.

export type CsvErrorCode =
  | 'BINARY_FILE'
  | 'UNTERMINATED_QUOTE'
  | 'FIELD_TOO_LARGE'
  | 'ROW_TOO_LARGE'
  | 'TOO_MANY_COLUMNS'
  | 'EMPTY_HEADER'
  | 'EMPTY_FILE'
  | 'INVALID_ENCODING'
  | 'INVALID_MAPPING'
  | 'INVALID_OPTIONS'
  | 'UNSUPPORTED_WORKBOOK'
  | 'INVALID_WORKBOOK'
  | 'WORKBOOK_TOO_LARGE'
  | 'UNKNOWN_SHEET';

export class CsvEngineError extends Error {
  readonly code: CsvErrorCode;
  /** 1-based physical line in the input the error points at, when there is one. */
  readonly line?: number;
  /**
   * Suggested HTTP status: 415 for content that cannot be read at all, 413 for a workbook that unpacks
   * past the limits, 400 for everything else.
   */
  readonly status: 400 | 413 | 415;

  constructor(code: CsvErrorCode, message: string, line?: number, status: 400 | 413 | 415 = 400) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.line = line;
    this.status = status;
  }
}

/** Binary content (NUL bytes) or a known non-CSV signature (ZIP/XLSX, XLS, PDF, images, archives). */
export class BinaryFileError extends CsvEngineError {
  /** What the file looks like, e.g. 'Excel/ZIP', 'PDF', 'PNG image', 'binary'. */
  readonly kind: string;
  constructor(kind: string) {
    super(
      'BINARY_FILE',
      kind === 'binary'
        ? 'This looks like a binary file, not CSV. Export it as CSV first.'
        : `This looks like ${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind} file, not CSV. Export it as CSV first.`,
      undefined,
      415,
    );
    this.kind = kind;
  }
}

export class UnterminatedQuoteError extends CsvEngineError {
  constructor(line: number) {
    super(
      'UNTERMINATED_QUOTE',
      `Unterminated quoted field starting on line ${line}. Close the quote or remove the stray " character.`,
      line,
    );
  }
}

export class FieldTooLargeError extends CsvEngineError {
  constructor(line: number, limitBytes: number) {
    super(
      'FIELD_TOO_LARGE',
      `A field on line ${line} is larger than ${formatBytes(limitBytes)}, the largest a single cell may be. Check the file is a CSV export and split very long cells.`,
      line,
    );
  }
}

export class RowTooLargeError extends CsvEngineError {
  constructor(line: number, limitBytes: number) {
    super(
      'ROW_TOO_LARGE',
      `The row starting on line ${line} is larger than ${formatBytes(limitBytes)}. Check the file is a CSV export.`,
      line,
    );
  }
}

export class TooManyColumnsError extends CsvEngineError {
  constructor(line: number, limit: number) {
    super(
      'TOO_MANY_COLUMNS',
      `Line ${line} has more than ${limit} columns. Check the delimiter of the file.`,
      line,
    );
  }
}

export class EmptyHeaderError extends CsvEngineError {
  constructor(line: number) {
    super(
      'EMPTY_HEADER',
      `The header row (line ${line}) has no column names. The first row of the file must name the columns.`,
      line,
    );
  }
}

export class EmptyFileError extends CsvEngineError {
  /** `message`: for a workbook, whose emptiness is said in its own words. */
  constructor(message = 'The file is empty. Upload a CSV file with a header row.') {
    super('EMPTY_FILE', message);
  }
}

export class InvalidEncodingError extends CsvEngineError {
  constructor(line: number, encoding: string) {
    super(
      'INVALID_ENCODING',
      `Line ${line} is not valid ${encoding} text. Save the file as UTF-8 CSV, or choose its encoding.`,
      line,
    );
  }
}

/** A mapping that cannot be applied: unknown column, a column mapped twice, a bad transform. */
export class MappingError extends CsvEngineError {
  constructor(message: string) {
    super('INVALID_MAPPING', message);
  }
}

export class OptionsError extends CsvEngineError {
  constructor(message: string) {
    super('INVALID_OPTIONS', message);
  }
}

/** A spreadsheet the engine will not read: legacy .xls, password-protected, or a ZIP that is no workbook. */
export class UnsupportedWorkbookError extends CsvEngineError {
  constructor(message: string) {
    super('UNSUPPORTED_WORKBOOK', message, undefined, 415);
  }
}

/** A workbook whose parts are broken or use XML features a workbook never needs (DTDs, entities). */
export class InvalidWorkbookError extends CsvEngineError {
  constructor(message: string) {
    super('INVALID_WORKBOOK', message);
  }
}

/** A workbook that unpacks to more than the limits allow (ZIP bombs included). */
export class WorkbookTooLargeError extends CsvEngineError {
  constructor(message: string) {
    super('WORKBOOK_TOO_LARGE', message, undefined, 413);
  }
}

export function isCsvEngineError(e: unknown): e is CsvEngineError {
  return e instanceof CsvEngineError;
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KB`;
  return `${n} bytes`;
}
