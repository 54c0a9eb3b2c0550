import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { MappingPair, MAX_PAIRS, OutputOptions, ReadingOptions } from '../mapping';
import { Trim, coded } from './common';

export const MAPPING_NAME_MAX = 200;
const NAME_REQUIRED = coded('NAME_REQUIRED', 'Please enter a name for the mapping');

/** POST /api/mappings and PUT /api/mappings/:id. */
export class SaveMappingRequest {
  /** @example "Monthly bank export to QuickBooks" */
  @Trim()
  @IsString(NAME_REQUIRED)
  @IsNotEmpty(NAME_REQUIRED)
  @MaxLength(
    MAPPING_NAME_MAX,
    coded('NAME_TOO_LONG', 'The mapping name is too long: use 200 characters or fewer.'),
  )
  name: string;
  @IsOptional() @IsString() @MaxLength(5000) description?: string | null;
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(500, { each: true })
  templateHeaders: string[];
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(500, { each: true })
  dataHeaders: string[] = [];
  @IsArray()
  @ArrayMaxSize(MAX_PAIRS)
  @ValidateNested({ each: true })
  @Type(() => MappingPair)
  mappings: MappingPair[];
  /** How the result is written when this mapping runs (request options win). */
  @IsOptional() @ValidateNested() @Type(() => OutputOptions) output?: OutputOptions | null;
  /** Overrides of the detected encoding, delimiter and header row (recipes, the command-line tool). */
  @IsOptional() @ValidateNested() @Type(() => ReadingOptions) reading?: ReadingOptions | null;
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
  createdAt: string;
  updatedAt: string;
  /** After a downgrade only the oldest mappings the plan allows stay usable. */
  locked: boolean;
}

export class MatchResult {
  mapping: SavedMappingView | null;
  score: number;
}
