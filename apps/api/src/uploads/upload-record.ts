import type { InspectResult, ReadOptions, SourceSpec, WorkbookLimits } from '@csv-mapper/csv-engine';
import type {
  InputEncoding,
  Transform,
  UpdateUploadRequest,
  UploadFormat,
  UploadSheet,
  UploadType,
} from '@csv-mapper/contracts';

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

/** What the store keeps beside a file's bytes, from its inspection and how it was read. */
export function infoOf(
  type: UploadType,
  inspection: InspectResult,
  extra: Pick<UploadInfo, 'format' | 'sheet' | 'sheets' | 'choices'>,
): UploadInfo {
  return {
    type,
    headers: inspection.headers,
    rowCount: inspection.rowCount,
    delimiter: inspection.delimiter,
    encoding: inspection.encoding,
    headerRow: inspection.headerRow,
    // "Match the template" takes these from a template file; a workbook has none: RFC 4180's.
    bom: extra.format === 'xlsx' ? false : inspection.bom,
    lineEnding: extra.format === 'xlsx' ? '\r\n' : inspection.lineEnding,
    ...(type === 'data' ? { inferred: inspection.columns.map((c) => c.inferred as Transform | null) } : {}),
    ...extra,
  };
}

/** The read options that reproduce what was decided at upload (or chosen since). */
export function readOptionsOf(info: UploadInfo): ReadOptions {
  // headerRow 0: no header row (every record is data, columns `Column 1…N`).
  if (info.format === 'xlsx') return { encoding: 'utf-8', delimiter: ',', headerRow: info.headerRow };
  return {
    encoding: info.encoding,
    delimiter: info.delimiter as ReadOptions['delimiter'],
    headerRow: info.headerRow,
  };
}

/** What the reader must do before the CSV reader sees the bytes (a workbook: which sheet). */
export function sourceSpecOf(info: UploadInfo, limits?: WorkbookLimits): SourceSpec {
  return info.format === 'xlsx' ? { format: 'xlsx', sheet: info.sheet, limits } : { format: 'csv' };
}

/** The reading choices a PATCH sets (the fields it leaves out keep their earlier choice). */
export function definedOnly(body: UpdateUploadRequest): ReadChoices {
  const out: ReadChoices = {};
  if (body.encoding !== undefined) out.encoding = body.encoding;
  if (body.delimiter !== undefined) out.delimiter = body.delimiter;
  if (body.headerRow !== undefined) out.headerRow = body.headerRow;
  if (body.sheet !== undefined) out.sheet = body.sheet;
  return out;
}

/** What the meta keeps beside an uploaded CSV's bytes, from its inspection (presigned uploads too). */
export function uploadInfo(type: UploadType, inspection: InspectResult): UploadInfo {
  return infoOf(type, inspection, { format: 'csv' });
}
