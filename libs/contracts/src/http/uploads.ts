import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
// The engine's delimiter list, read by path (it imports nothing; the web app resolves only the contract).
import { DELIMITERS, type Delimiter } from '../../../csv-engine/src/delimiters';
import { Trim } from './common';

// POST /api/upload (and /api/upload/template, /api/upload/data): the uploaded file record.
// PATCH /api/upload/:fileId: how the stored file is read (encoding, delimiter, header row, sheet).
import type { MappingPair, Transform } from '../mapping';
import type { SourceChanges } from '../source-drift';

export type UploadType = 'template' | 'data';

/** How the inspector read the file's bytes. */
export type InputEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252' | 'iso-8859-1';

/** The encodings a person may choose for a CSV upload. */
export const UPLOAD_ENCODINGS: readonly InputEncoding[] = [
  'utf-8',
  'utf-16le',
  'utf-16be',
  'windows-1252',
  'iso-8859-1',
];
/** The delimiters a person may choose for a CSV upload (TAB as the character itself). */
export const UPLOAD_DELIMITERS = DELIMITERS;

/** What the file is, by its content: CSV text or an Excel workbook (.xlsx). */
export type UploadFormat = 'csv' | 'xlsx';

/** A worksheet of an uploaded workbook. */
export class UploadSheet {
  name: string;
  /** Non-empty rows, title rows and the header included. */
  rows: number;
  /** Hidden in Excel: listed, never chosen by default. */
  hidden?: boolean;
}

/** A record from the top of the file (blank lines skipped), for choosing the header row. */
export class UploadLine {
  /** 1-based line the record starts on (the sheet's row number in a workbook); send it as `headerRow`. */
  line: number;
  cells: string[];
}

/** PATCH /api/upload/:fileId: read the stored file again with these choices (the rest stay detected). */
export class UpdateUploadRequest {
  /** CSV only. */
  @IsOptional()
  @IsIn(UPLOAD_ENCODINGS, {
    message: 'encoding must be one of utf-8, utf-16le, utf-16be, windows-1252, iso-8859-1.',
  })
  encoding?: InputEncoding;
  /** CSV only: `,` `;` TAB (`\t`) or `|`. */
  @IsOptional()
  @IsIn(UPLOAD_DELIMITERS, { message: 'delimiter must be one of , ; | or a TAB character.' })
  delimiter?: Delimiter;
  /**
   * 1-based line (row of the sheet) holding the column names; lines above it are skipped. `0`: the file
   * has no header row: every record (every sheet row) is data and the columns are named `Column 1`…`Column N`.
   * @example 0
   */
  @IsOptional()
  @IsInt({ message: 'headerRow must be a whole line number, or 0 for a file without a header row.' })
  @Min(0, { message: 'headerRow must be a line number (1 or more), or 0 for a file without a header row.' })
  @Max(1_048_576, { message: 'headerRow is past the end of any file.' })
  headerRow?: number;
  /** Workbooks only: the sheet to read. */
  @IsOptional() @IsString() @MaxLength(100) sheet?: string;
}

/** The spec §3 uploaded file record plus what the inspector learned. `data` is a 5-row preview. */
export class UploadRecord {
  id: string;
  filename: string;
  headers: string[];
  data: string[][];
  type: UploadType;
  uploadedAt: string;
  size: number;
  rowCount: number;
  delimiter: string;
  encoding: InputEncoding;
  /** Why that encoding was assumed (the Windows-1252 fallback is a guess the user should know about). */
  encodingReason: string;
  /** 1-based line (sheet row) of the column names; 0: no header row (columns `Column 1`…`Column N`). */
  headerRow: number;
  /**
   * The header row detection picks with this encoding and delimiter (0: none): the same as `headerRow`
   * unless one was chosen with PATCH. Absent when the top of the file could not be read again.
   */
  detectedHeaderRow?: number;
  /** CSV text or an Excel workbook; downstream everything is the same. */
  format: UploadFormat;
  /** Workbooks: every worksheet, in workbook order. */
  sheets?: UploadSheet[];
  /** Workbooks: the sheet being read. */
  sheet?: string;
  /**
   * The first 100 records from the top of the file (preamble included, blank lines skipped), to pick the
   * header row; fewer when they do not fit in its first 64 KB.
   */
  firstLines: UploadLine[];
  /** Set on a data file with more rows than the plan allows per file; only maxRows rows will be mapped. */
  exceedsRowLimit?: boolean;
  actualRows?: number;
  maxRows?: number;
  /** Each column with the transform the engine's inference suggests for its values (null: copy as is). */
  columns?: UploadColumn[];
  /** A UTF-8 byte order mark opened the file ("match the template" writes one too). */
  bom?: boolean;
  /** The file's line ending ("match the template" writes the same). */
  lineEnding?: '\r\n' | '\n';
  /** Data files: saved mappings whose columns fit this file, best first (up to 3). */
  matchingMappings?: MappingMatch[];
}

/** One column of an upload and what its values look like. */
export class UploadColumn {
  name: string;
  /** e.g. `{ kind: 'amount', decimals: 2, decimalSeparator: '.' }` for "(12.50)" and "£7.25 CR". */
  inferred: Transform | null;
}

/** A saved mapping that fits an uploaded data file (source recognition). */
export class MappingMatch {
  id: string;
  name: string;
  /** 0–1: how closely the saved mapping's data columns match the file's (a renamed column counts as present). */
  score: number;
  /** What changed since the mapping was saved (source drift); all three lists empty when nothing did. */
  changes?: SourceChanges;
  /** Columns the saved mapping reads that this file lacks (not renamed): their template columns need mapping again. */
  missingColumns?: string[];
  /** With changes: the saved pairs with renamed columns substituted (pairs reading a missing column left out). */
  adaptedMapping?: MappingPair[];
}

// POST /api/upload/presign and POST /api/upload/:uploadId/complete: Enterprise direct uploads to storage.

/** Largest single PUT object storage accepts (S3's limit for one request). */
export const DIRECT_UPLOAD_MAX_BYTES = 5 * 1024 * 1024 * 1024;

export class PresignUploadRequest {
  /** Which file this is. @example "data" */
  @IsIn(['template', 'data'], { message: 'kind: Say which file this is: "template" or "data"' })
  kind: UploadType;

  /** The file's name (a .csv file). @example "export.csv" */
  @Trim()
  @IsString({ message: 'fileName: Send the file name' })
  @IsNotEmpty({ message: 'fileName: Send the file name' })
  @MaxLength(255, { message: 'fileName: The file name must be at most 255 characters' })
  fileName: string;

  /** The exact size in bytes; storage refuses a body of any other length. @example 127926784 */
  @IsInt({ message: 'size: Send the file size in bytes (a whole number)' })
  @Min(1, { message: 'size: The file is empty. Choose a CSV file with a header row.' })
  @Max(DIRECT_UPLOAD_MAX_BYTES, { message: 'size: Direct uploads are limited to 5 GB per file.' })
  size: number;
}

/** Where and how to PUT the file: send exactly these headers, before expiresAt. */
export class PresignedUploadView {
  uploadId: string;
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expiresAt: string;
}
