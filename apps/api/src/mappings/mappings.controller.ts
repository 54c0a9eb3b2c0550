import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { ApiKeyAllowed } from '../auth/api-key-allowed.decorator';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import {
  MatchMappingRequest,
  Recipe,
  SaveMappingRequest,
  type MatchResult,
  type SavedMappingView,
} from '@csv-mapper/contracts';
import { MappingsService } from './mappings.service';

@Controller('mappings')
@UseGuards(AuthGuard)
export class MappingsController {
  constructor(private readonly mappings: MappingsService) {}

  /** List your saved mappings */
  @Get()
  @ApiKeyAllowed()
  list(@CurrentUser() user: AuthUser): Promise<SavedMappingView[]> {
    return this.mappings.list(user);
  }

  /** Find the saved mapping that fits a data file’s headers (source recognition) */
  @Post('match')
  @ApiKeyAllowed()
  @HttpCode(200)
  match(@CurrentUser() user: AuthUser, @Body() body: MatchMappingRequest): Promise<MatchResult> {
    return this.mappings.match(user, body.headers);
  }

  /** Save a mapping from a recipe file (the body is the recipe an export gave) */
  @Post('import')
  @ApiKeyAllowed()
  importRecipe(@CurrentUser() user: AuthUser, @Body() body: Recipe): Promise<SavedMappingView> {
    return this.mappings.importRecipe(user, body);
  }

  /** A saved mapping as a versioned JSON recipe (for the command-line tool, or to import elsewhere) */
  @Get(':id/recipe')
  @ApiKeyAllowed()
  exportRecipe(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<Recipe> {
    return this.mappings.exportRecipe(user, id);
  }

  /** One saved mapping (its id is what POST /api/process takes as mappingId) */
  @Get(':id')
  @ApiKeyAllowed()
  get(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<SavedMappingView> {
    return this.mappings.get(user, id);
  }

  /** Save a mapping */
  @Post()
  @ApiKeyAllowed()
  create(@CurrentUser() user: AuthUser, @Body() body: SaveMappingRequest): Promise<SavedMappingView> {
    return this.mappings.create(user, body);
  }

  /** Create or update a saved mapping under this id */
  @Put(':id')
  @ApiKeyAllowed()
  async upsert(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: SaveMappingRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SavedMappingView> {
    const { created, mapping } = await this.mappings.upsert(user, id, body);
    res.status(created ? 201 : 200);
    return mapping;
  }

  /** Delete a saved mapping */
  @Delete(':id')
  @HttpCode(204)
  @ApiKeyAllowed()
  remove(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.mappings.remove(user, id);
  }
}
