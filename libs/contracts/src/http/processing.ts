import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import {
  MappingPair,
  MAX_PAIRS,
  OutputOptions,
  type ControlTotal,
  type ResolvedOutputOptions,
  type RunTotals,
  type Warning,
} from '../mapping';
import { IsTemplateRules, type Corrections, type TemplateRules } from '../rules';
import { coded } from './common';

const MISSING_FILES = coded('MISSING_FILES', 'Please upload both template and data files');

/**
 * What a mapping run takes besides its files: the pairs (or a saved mapping), a virtual template's columns,
 * the output options and what to do with unmapped columns. POST /api/process and POST /api/batches extend it.
 */
export class MappingRunFields {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_PAIRS)
  @ValidateNested({ each: true })
  @Type(() => MappingPair)
  mappings: MappingPair[] = [];
  /** A saved mapping to run: its pairs are used when `mappings` is empty; named in webhook events. */
  @IsOptional() @IsString() @MaxLength(100) mappingId?: string;
  /** The columns of a virtual template. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(500, { each: true })
  templateHeaders?: string[];
  @IsOptional() @ValidateNested() @Type(() => OutputOptions) options: OutputOptions = new OutputOptions();
  /**
   * `"empty"`: every template column without a pair is written empty (listed in `totals.emptyColumns`)
   * instead of the 400 "Please map all template columns". A required column left empty is reported on
   * every row, as any empty required value.
   */
  @IsOptional()
  @IsIn(['empty'], { message: 'unmappedColumns must be "empty" (or left out)' })
  unmappedColumns?: 'empty';
}

/** POST /api/process and POST /api/process/preview (spec §3 plus transforms, options and saved mappings). */
export class ProcessRequest extends MappingRunFields {
  /**
   * The uploaded template's id, or `virtual-template-<built-in id>` with `templateHeaders`.
   * @example "3f9c2d1e-8b7a-4c6d-9e0f-1a2b3c4d5e6f"
   */
  @IsString(MISSING_FILES) @IsNotEmpty(MISSING_FILES) @MaxLength(200) templateFileId: string;
  /**
   * The uploaded data file's id.
   * @example "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
   */
  @IsString(MISSING_FILES) @IsNotEmpty(MISSING_FILES) @MaxLength(200) dataFileId: string;
  /** Run as a background job (Business and Enterprise). */
  @IsOptional() @IsBoolean() async?: boolean;
  /**
   * Rules per template column, checked on every row (each failing cell is a warning with its `rule`).
   * For a built-in template they are added to the template's own rules (a column named here replaces
   * the built-in rules of that column).
   * @example { "Title": { "required": true, "maxLength": 255 }, "Variant Price": { "type": "amount" } }
   */
  @IsOptional() @IsTemplateRules() templateRules?: TemplateRules;
}

/** The sync answer: the mapped CSV itself. */
export class ProcessResponse {
  /** The result as text (a BOM, when written, is its first character). */
  csvData: string;
  /** The result's exact bytes, base64, when they are not UTF-8 (Windows-1252 output). */
  csvBase64?: string;
  /** The output settings used (after "match the template"). */
  output: ResolvedOutputOptions;
  /** Control totals: rows read, written, skipped with reasons, and sums per amount/number column. */
  totals: RunTotals;
  filename: string;
  rowsProcessed: number;
  totalRowsInFile: number;
  limitExceeded: boolean;
  limitType: 'monthlyQuota' | 'rows' | null;
  warningCount: number;
  warnings: Warning[];
  controlTotals: ControlTotal[];
  /** Warnings by rule (`other` for warnings without a rule). */
  warningsByRule?: Record<string, number>;
  /**
   * Id of this run for the review routes: GET /api/jobs/{reviewId}/issues, PATCH /api/jobs/{reviewId}/cells
   * and POST /api/jobs/{reviewId}/rerun work on it as on a background job (the rerun is queued). Present
   * when the run had warnings; kept as long as the uploads.
   */
  reviewId?: string;
  /** Set when the run applied a patch. */
  corrections?: Corrections;
}

/** 202 answer when the run goes to the background queue. */
export class QueuedResponse {
  jobId: string;
  status: 'queued';
  rowsToProcess: number;
  totalRowsInFile: number;
  limitExceeded: boolean;
  limitType: 'monthlyQuota' | 'rows' | null;
}

export class PreviewResponse {
  headers: string[];
  rows: string[][];
  warningCount: number;
  warnings: Warning[];
  totalRowsInFile: number;
}
