// POST /api/upload (and /api/upload/template, /api/upload/data): the uploaded file record.
import type { Transform } from '../mapping';

export type UploadType = 'template' | 'data';

/** How the inspector read the file's bytes. */
export type InputEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

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
  headerRow: number;
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
  /** 0–1: how closely the saved mapping's data columns match the file's. */
  score: number;
}
