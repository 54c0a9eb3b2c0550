import type { InputEncoding, Transform, UploadFormat, UploadSheet, UploadType } from '@csv-mapper/contracts';

export type { UploadRecord, UploadType } from '@csv-mapper/contracts';

/** What the person chose about reading the file (PATCH /api/upload/:id); the rest is detected. */
export interface ReadChoices {
  encoding?: InputEncoding;
  delimiter?: ',' | ';' | '\t' | '|';
  headerRow?: number;
  sheet?: string;
}

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
  /** Absent on uploads stored before workbooks were read: CSV. */
  format?: UploadFormat;
  sheet?: string;
  sheets?: UploadSheet[];
  choices?: ReadChoices;
  /** When the file was first uploaded (kept when its details are stored again). */
  uploadedAt?: string;
  /** Absent on files stored before these were kept. */
  bom?: boolean;
  lineEnding?: '\r\n' | '\n';
  /**
   * Data files: each column's transform as its first rows suggested it (the upload answer's
   * columns[].inferred), kept so a suggestion need not read the values twice. Absent on older uploads.
   */
  inferred?: (Transform | null)[];
}
