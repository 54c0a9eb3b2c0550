import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  Equals,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { MappingPair, MAX_PAIRS, OutputOptions, ReadingOptions } from './mapping';
import { Trim, coded } from './http/common';
import { IsTemplateRules, type TemplateRules } from './rules';

// A recipe: a saved mapping as a portable, versioned JSON file — template headers, pairs with their
// transforms, how to read the data file and how to write the result. Exported by the api
// (GET /api/mappings/:id/recipe), imported back (POST /api/mappings/import) and run by the command-line tool,
// all validated by this class. A newer `version` is refused rather than half understood.

export const RECIPE_FORMAT = 'csv-mapper/recipe';
export const RECIPE_VERSIONS = [1] as const;
export const RECIPE_VERSION = 1;

/**
 * What a saved mapping and its recipe both hold, with one rule each: the description, the template's
 * columns, the pairs and the template's column rules. SaveMappingRequest and Recipe extend it.
 */
export class SavedMappingFields {
  @IsOptional() @IsString() @MaxLength(5000) description?: string | null;
  /** The template's columns, in order: the result's header row. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(500, { each: true })
  templateHeaders: string[];
  @IsArray()
  @ArrayMaxSize(MAX_PAIRS)
  @ValidateNested({ each: true })
  @Type(() => MappingPair)
  mappings: MappingPair[];
  /** Rules of the template's columns (required, type, max length, allowed values, unique). */
  @IsOptional() @IsTemplateRules() templateRules?: TemplateRules;
}

export class Recipe extends SavedMappingFields {
  /** Always "csv-mapper/recipe". */
  @Equals(RECIPE_FORMAT, {
    message: `format must be "${RECIPE_FORMAT}": this file is not a CSV Mapper recipe`,
    context: { code: 'INVALID_RECIPE' },
  })
  format: typeof RECIPE_FORMAT;
  /** Recipe format version (1). */
  @IsIn(RECIPE_VERSIONS, {
    message: `version must be one of: ${RECIPE_VERSIONS.join(', ')}; export the recipe again from this version of CSV Mapper`,
    context: { code: 'UNSUPPORTED_RECIPE_VERSION' },
  })
  version: number;
  /** @example "Monthly bank export to QuickBooks" */
  @Trim()
  @IsString(coded('NAME_REQUIRED', 'A recipe needs a name'))
  @IsNotEmpty(coded('NAME_REQUIRED', 'A recipe needs a name'))
  @MaxLength(200)
  name: string;
  /** The data file's columns the recipe was made for (source recognition). */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(500, { each: true })
  dataHeaders?: string[];
  /** Overrides of the detected encoding, delimiter and header row. */
  @IsOptional() @ValidateNested() @Type(() => ReadingOptions) reading?: ReadingOptions;
  /**
   * How the result is written. A recipe carries the template file's format resolved (delimiter, BOM, line
   * ending, encoding), since the command-line tool has no template file to match.
   */
  @IsOptional() @ValidateNested() @Type(() => OutputOptions) output?: OutputOptions;
}
