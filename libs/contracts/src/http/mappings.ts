import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { MappingPair, OutputOptions, ReadingOptions } from '../mapping';
import type { TemplateRules } from '../rules';
import { DUPLICATES_MODES, type DuplicatesMode } from './history';
import { SavedMappingFields } from '../recipe';
import { Trim, coded } from './common';

export const MAPPING_NAME_MAX = 200;
const NAME_REQUIRED = coded('NAME_REQUIRED', 'Please enter a name for the mapping');
const SUGGEST_FILES = coded(
  'MISSING_FILES',
  'Send dataFileId with templateFileId (an uploaded template) or templateId (a built-in template).',
);

/** POST /api/mappings and PUT /api/mappings/:id. */
export class SaveMappingRequest extends SavedMappingFields {
  /** @example "Monthly bank export to QuickBooks" */
  @Trim()
  @IsString(NAME_REQUIRED)
  @IsNotEmpty(NAME_REQUIRED)
  @MaxLength(
    MAPPING_NAME_MAX,
    coded('NAME_TOO_LONG', 'The mapping name is too long: use 200 characters or fewer.'),
  )
  name: string;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(500, { each: true })
  dataHeaders: string[] = [];
  /** How the result is written when this mapping runs (request options win). */
  @IsOptional() @ValidateNested() @Type(() => OutputOptions) output?: OutputOptions | null;
  /** Overrides of the detected encoding, delimiter and header row (recipes, the command-line tool). */
  @IsOptional() @ValidateNested() @Type(() => ReadingOptions) reading?: ReadingOptions | null;
  /**
   * Rows an earlier run of this mapping exported: `skip` (left out, not counted against the monthly rows),
   * `flag` (written and reported; the default for new mappings) or `keep` (written, counted in the totals).
   * Left out of a PUT: the saved mode stays.
   */
  @IsOptional()
  @IsIn(DUPLICATES_MODES, { message: 'duplicates must be "skip", "flag" or "keep"' })
  duplicates?: DuplicatesMode;
  /**
   * Template columns that identify a row for run history (e.g. Date, Amount, Description); null: the whole
   * output row. Left out: the whole row for a new mapping; on a PUT, the saved columns stay (those the new
   * template still has).
   * @example ["Date", "Amount", "Description"]
   */
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(500, { each: true })
  historyKeyColumns?: string[] | null;
}

/** POST /api/mappings/match: the data file's headers. */
export class MatchMappingRequest {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(500, { each: true })
  headers: string[];
}

export class SavedMappingView {
  id: string;
  name: string;
  description: string | null;
  templateHeaders: string[];
  dataHeaders: string[];
  mappings: MappingPair[];
  output: OutputOptions | null;
  reading: ReadingOptions | null;
  templateRules?: TemplateRules;
  /** What runs do with rows an earlier run exported. */
  duplicates: DuplicatesMode;
  /** Template columns a row's fingerprint is taken from; null: the whole output row. */
  historyKeyColumns: string[] | null;
  createdAt: string;
  updatedAt: string;
  /** After a downgrade only the oldest mappings the plan allows stay usable. */
  locked: boolean;
}

export class MatchResult {
  mapping: SavedMappingView | null;
  score: number;
}

/**
 * POST /api/mappings/suggest: the data file and either an uploaded template (`templateFileId`) or a
 * built-in one (`templateId`, as GET /api/templates lists them).
 */
export class SuggestMappingsRequest {
  /**
   * The uploaded data file's id.
   * @example "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
   */
  @IsString(SUGGEST_FILES) @IsNotEmpty(SUGGEST_FILES) @MaxLength(200) dataFileId: string;
  /**
   * An uploaded template's id (or send `templateId`).
   * @example "3f9c2d1e-8b7a-4c6d-9e0f-1a2b3c4d5e6f"
   */
  @IsOptional() @IsString() @IsNotEmpty(SUGGEST_FILES) @MaxLength(200) templateFileId?: string;
  /**
   * A built-in template's id (or send `templateFileId`).
   * @example "accounting-customers"
   */
  @IsOptional() @IsString() @IsNotEmpty(SUGGEST_FILES) @MaxLength(200) templateId?: string;
}

/** A suggested pair: exactly a MappingPair of POST /api/process, with why it was suggested. */
export class SuggestedMapping extends MappingPair {
  /** 0–1: how sure the suggester is. */
  confidence: number;
  /**
   * One sentence for people, shown in the mapper.
   * @example "'Betrag' means Amount (German); its values are amounts with a decimal comma"
   */
  reason: string;
}

export class SuggestMappingsResponse {
  /** One pair per template column the suggester could fill (or left empty on purpose). Send as `mappings`. */
  mappings: SuggestedMapping[];
  /** Template columns with no suggestion: map them, leave them empty, or send `unmappedColumns: "empty"`. */
  unmatched: string[];
  /** The built-in template this one is (a built-in, or an uploaded template with a built-in's headers). */
  builtInTemplateId?: string;
}
