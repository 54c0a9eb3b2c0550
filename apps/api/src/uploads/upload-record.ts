import type { InputEncoding } from '@csv-mapper/csv-engine';

export type UploadType = 'template' | 'data';

export function isUploadType(v: unknown): v is UploadType {
  return v === 'template' || v === 'data';
}

/** What the ephemeral store keeps beside an upload's bytes (BlobMeta.info). */
export interface UploadInfo {
  type: UploadType;
  headers: string[];
  rowCount: number;
  delimiter: string;
  encoding: InputEncoding;
  headerRow: number;
}

/** The spec §3 uploaded file record plus what the inspector learned. `data` is a 5-row preview. */
export interface UploadRecord {
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
  exceedsRowLimit?: boolean;
  actualRows?: number;
  maxRows?: number;
}
