import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsNotEmpty,
  IsString,
  MaxLength,
} from 'class-validator';
import { coded } from './common';
import { MappingRunFields } from './processing';
import type { JobState } from './jobs';

// Bulk uploads (Business and Enterprise): one template and one mapping over up to 20 data files, one
// background job per file, one ZIP of the results.

/** Data files one batch may carry. */
export const MAX_BATCH_FILES = 20;

const MISSING_FILES = coded('MISSING_FILES', 'Send the template file and at least one data file.');

/** POST /api/batches: the data files are uploaded first (POST /api/upload/data), as for one file. */
export class CreateBatchRequest extends MappingRunFields {
  /**
   * The uploaded template's id, or `virtual-template-<built-in id>` with `templateHeaders`.
   * @example "3f9c2d1e-8b7a-4c6d-9e0f-1a2b3c4d5e6f"
   */
  @IsString(MISSING_FILES) @IsNotEmpty(MISSING_FILES) @MaxLength(200) templateFileId: string;
  /** Ids of uploaded data files (1 to 20), each mapped with the same pairs. */
  @IsArray(MISSING_FILES)
  @ArrayMinSize(1, MISSING_FILES)
  @ArrayMaxSize(MAX_BATCH_FILES, coded('TOO_MANY_FILES', 'A batch takes at most 20 data files.'))
  @ArrayUnique(undefined, { message: 'Each data file can be in a batch once.' })
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  dataFileIds: string[];
}

/** A data file the batch runs: its background job. */
export class BatchJobRef {
  jobId: string;
  dataFileId: string;
}

/** A data file the batch left out, and why (the other files go on). */
export class BatchRejection {
  dataFileId: string;
  /** The file's name when it could be read. */
  filename: string | null;
  reason: string;
}

/** 202 answer to POST /api/batches. */
export class BatchCreatedResponse {
  batchId: string;
  jobs: BatchJobRef[];
  rejected: BatchRejection[];
}

export type BatchState = 'running' | 'completed';

/** One file of a batch as GET /api/batches/:id shows it. */
export class BatchFileView {
  jobId: string;
  dataFileId: string;
  filename: string;
  state: JobState;
  /** 0–100. */
  progress: number;
  rowsProcessed: number;
  totalRows: number;
  warnings: number;
  error: string | null;
  /** Completed files only: where the result is downloaded. */
  resultUrl: string | null;
}

/** The batch total: files by state and rows over all files. */
export class BatchTotals {
  files: number;
  queued: number;
  active: number;
  completed: number;
  failed: number;
  cancelled: number;
  rowsProcessed: number;
  totalRows: number;
  /** 0–100 over the rows of every file. */
  progress: number;
}

/** GET /api/batches/:id (and each entry of GET /api/batches). */
export class BatchView {
  id: string;
  state: BatchState;
  templateFilename: string | null;
  mappingName: string | null;
  files: BatchFileView[];
  rejected: BatchRejection[];
  totals: BatchTotals;
  /** Once at least one file has completed: the ZIP of every completed file's result. */
  resultZipUrl: string | null;
  createdAt: string;
  finishedAt: string | null;
}
