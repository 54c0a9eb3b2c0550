import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { MappingPair, MAX_PAIRS, OutputOptions, type ControlTotal, type Warning } from '../mapping';
import { coded } from './common';

const MISSING_FILES = coded('MISSING_FILES', 'Please upload both template and data files');

/** POST /api/process and POST /api/process/preview (spec §3 plus transforms, options and saved mappings). */
export class ProcessRequest {
  @IsString(MISSING_FILES) @IsNotEmpty(MISSING_FILES) @MaxLength(200) templateFileId: string;
  @IsString(MISSING_FILES) @IsNotEmpty(MISSING_FILES) @MaxLength(200) dataFileId: string;
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
  /** Run as a background job (Business and Enterprise). */
  @IsOptional() @IsBoolean() async?: boolean;
  @IsOptional() @ValidateNested() @Type(() => OutputOptions) options: OutputOptions = new OutputOptions();
}

/** The sync answer: the mapped CSV itself. */
export class ProcessResponse {
  csvData: string;
  filename: string;
  rowsProcessed: number;
  totalRowsInFile: number;
  limitExceeded: boolean;
  limitType: 'monthlyQuota' | 'rows' | null;
  warningCount: number;
  warnings: Warning[];
  controlTotals: ControlTotal[];
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
