// POST /api/upload (and /api/upload/template, /api/upload/data): the uploaded file record.

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
}
