import type { TemplateTransform } from '@csv-mapper/domain';

export type UploadType = 'template' | 'data';

/** POST /api/upload: the spec §3 file record plus the inspection; `data` holds the first 5 rows. */
export interface UploadedFile {
  id: string;
  filename: string;
  headers: string[];
  data?: string[][];
  type: UploadType;
  uploadedAt: string;
  rowCount: number;
  size?: number;
  delimiter?: string;
  encoding?: string;
  /** Why that encoding was assumed, e.g. "Read as Windows-1252 because the file is not valid UTF-8." */
  encodingReason?: string;
  exceedsRowLimit?: boolean;
  actualRows?: number;
  maxRows?: number;
}

/** The engine's transforms (ARCHITECTURE §4); the built-in templates' defaults are a subset. */
export type Transform =
  | TemplateTransform
  | { kind: 'amount'; decimals?: number; negative?: 'minus' | 'parentheses' }
  | {
      kind: 'debitCredit';
      debitColumn: string;
      creditColumn: string;
      sign?: 'creditPositive' | 'debitPositive';
      decimals?: number;
    }
  | { kind: 'constant'; value: string };

export type TransformKind = Transform['kind'];

export interface MappingPair {
  templateColumn: string;
  dataColumn: string;
  transform?: Transform;
}

export interface Warning {
  row: number;
  column: string;
  value: string;
  reason: string;
}

export interface ControlTotal {
  column: string;
  kind: 'amount' | 'number' | 'debitCredit';
  sourceColumns: string[];
  sourceTotal: string;
  outputTotal: string;
  values: number;
  unreadable: number;
}

export interface ProcessRequest {
  templateFileId: string;
  dataFileId: string;
  mappings: MappingPair[];
  templateHeaders?: string[];
}

/** POST /api/process (spec §3 process response) plus warnings and control totals. */
export interface ProcessResult {
  csvData: string;
  filename: string;
  rowsProcessed: number;
  totalRowsInFile: number;
  limitExceeded: boolean;
  limitType: 'monthlyQuota' | 'rows' | null;
  warningCount: number;
  warnings: Warning[];
  controlTotals: ControlTotal[];
  /** Set for background jobs: the result is downloaded from the api instead of built from csvData. */
  downloadUrl?: string;
}

/** 202 from POST /api/process: the file runs as a background job. */
export interface QueuedResult {
  jobId: string;
  status: 'queued';
  rowsToProcess: number;
  totalRowsInFile: number;
  limitExceeded: boolean;
  limitType: 'monthlyQuota' | 'rows' | null;
}

export interface PreviewResult {
  headers: string[];
  rows: string[][];
  warningCount: number;
  warnings: Warning[];
  totalRowsInFile: number;
}

export interface SavedMapping {
  id: string;
  name: string;
  description: string | null;
  templateHeaders: string[];
  dataHeaders: string[];
  mappings: MappingPair[];
  createdAt: string;
  updatedAt: string;
  locked: boolean;
}
