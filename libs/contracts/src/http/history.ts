import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { ControlTotal } from '../mapping';

// Run history of saved mappings (issue 30): rows already exported by an earlier run, the runs of a mapping
// (GET /api/mappings/:id/runs) and running a saved mapping in one call (POST /api/mappings/:id/runs).

/** What a run of a saved mapping does with rows an earlier run of it exported. */
export const DUPLICATES_MODES = ['skip', 'flag', 'keep'] as const;
/**
 * `skip`: not written, not counted against the monthly rows; `flag`: written and reported (a warning with
 * rule `alreadyExported` on the row, shown in the review grid); `keep`: written, only counted in the totals.
 */
export type DuplicatesMode = (typeof DUPLICATES_MODES)[number];

/** Where a run came from. */
export const MAPPING_RUN_SOURCES = ['browser', 'api', 'bulk', 'cli'] as const;
export type MappingRunSource = (typeof MAPPING_RUN_SOURCES)[number];

/** Who ran it: the team member's username (as in the team's members list); null once the account is gone. */
export class MappingRunner {
  userId: string;
  name: string;
}

/** An earlier run some of this run's rows were exported by. */
export class AlreadyExportedFrom {
  runId: string;
  /** When that run happened (ISO 8601). */
  at: string;
  by: MappingRunner | null;
  /** Rows of this run that run exported. */
  rows: number;
}

/** One run of a saved mapping, newest first in GET /api/mappings/:id/runs. */
export class MappingRunView {
  id: string;
  mappingId: string;
  source: MappingRunSource;
  state: 'running' | 'completed' | 'failed';
  by: MappingRunner | null;
  createdAt: string;
  finishedAt: string | null;
  dataFilename: string | null;
  /** The background job that ran it (null: a sync run). */
  jobId: string | null;
  batchId: string | null;
  rowsRead: number;
  rowsWritten: number;
  rowsAlreadyExported: number;
  /** Rows read but not written (already exported with `skip`, or cut by a limit). */
  rowsSkipped: number;
  duplicates: DuplicatesMode;
  controlTotals: ControlTotal[] | null;
  /** Download address of the result while it is kept (background jobs), else null. */
  resultUrl: string | null;
  resultExpiresAt: string | null;
  /** Why it failed (e.g. SOURCE_CHANGED). */
  errorCode: string | null;
}

/** GET /api/mappings/:id/runs query. */
export class MappingRunsQuery {
  /** The `nextCursor` of the previous page. */
  @IsOptional() @IsString() @MaxLength(20) cursor?: string;
  /** Runs per page, 1–100. Default 20. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

export class MappingRunsPage {
  runs: MappingRunView[];
  /** Pass as `cursor` for the next page; null at the end. */
  nextCursor: string | null;
  total: number;
}

/**
 * POST /api/mappings/:id/runs (multipart/form-data): `file` (the data file), optional `templateFile` (else
 * the mapping's built-in template when it has one), and these fields.
 */
export class RunMappingFields {
  /** `true` (or "true"): run as a background job (Business and Enterprise); 202 with the job. */
  @IsOptional()
  @Type(() => String)
  @IsIn(['true', 'false'], { message: 'async must be true or false' })
  async?: string;
}

/** 422 SOURCE_CHANGED: the data file lacks columns the saved mapping reads. */
export class SourceChangedBody {
  error: string;
  code: 'SOURCE_CHANGED';
  /** The mapped data columns the file does not have. */
  missing: string[];
}

/** Kept for symmetry with other boolean fields: a JSON body's `async`. */
export class RunMappingJson {
  @IsOptional() @IsBoolean() async?: boolean;
}
