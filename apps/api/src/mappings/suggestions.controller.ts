import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiKeyAllowed } from '../auth/api-key-allowed.decorator';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBody, SuggestMappingsRequest, SuggestMappingsResponse } from '@csv-mapper/contracts';
import { SuggestionsService } from './suggestions.service';

@Controller('mappings')
@UseGuards(AuthGuard)
export class SuggestionsController {
  constructor(private readonly suggestions: SuggestionsService) {}

  /**
   * Suggest which data column feeds each template column, with a reason for each
   *
   * Reads the uploads' headers and up to 200 rows of the data file. The answer's `mappings` is what
   * POST /api/process takes as `mappings` (`confidence` and `reason` are ignored there); columns nothing
   * fits are listed in `unmatched`. A built-in template's optional columns come back `empty: true`.
   */
  @Post('suggest')
  @HttpCode(200)
  @ApiKeyAllowed()
  @ApiResponse({ status: 200, type: SuggestMappingsResponse, description: 'The suggested pairs' })
  @ApiResponse({
    status: 404,
    type: ErrorBody,
    description:
      'A file is missing, expired or someone else’s (FILE_NOT_FOUND), or no built-in template has that id',
  })
  suggest(
    @CurrentUser() user: AuthUser,
    @Body() body: SuggestMappingsRequest,
  ): Promise<SuggestMappingsResponse> {
    return this.suggestions.suggest(user, body);
  }
}
