import type { InputEncoding, UploadType } from '@csv-mapper/contracts';

export type { UploadRecord, UploadType } from '@csv-mapper/contracts';

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
  /** Absent on files stored before these were kept. */
  bom?: boolean;
  lineEnding?: '\r\n' | '\n';
}
