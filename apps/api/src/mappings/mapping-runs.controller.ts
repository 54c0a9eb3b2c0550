import {
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  MappingRunsPage,
  MappingRunsQuery,
  ProcessResponse,
  QueuedResponse,
  SourceChangedBody,
} from '@csv-mapper/contracts';
import { ApiKeyAllowed } from '../auth/api-key-allowed.decorator';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { RedisUnavailableInterceptor } from '../jobs/redis-unavailable.interceptor';
import { MappingRunsService } from './mapping-runs.service';

@Controller('mappings')
@UseGuards(AuthGuard)
export class MappingRunsController {
  constructor(private readonly runs: MappingRunsService) {}

  /**
   * Run a saved mapping on a data file in one call (multipart: `file`, optional `templateFile`, `async`)
   *
   * Answers exactly as POST /api/process with `mappingId`: the mapped CSV, or 202 with a background job
   * (Business and Enterprise, or a file over the sync row limit) whose webhook events carry `mappingId`.
   * The template is the `templateFile` part (uploaded with the data file), or an uploaded template's
   * `templateFileId`; without either the saved mapping's own template columns are the template (comma,
   * CRLF, UTF-8 unless the mapping's output options say otherwise). Rows an earlier run of the mapping
   * exported are skipped, flagged or kept as its `duplicates` says (`totals.rowsAlreadyExported`,
   * `totals.alreadyExportedFrom`). A file without a column the mapping reads answers 422 SOURCE_CHANGED.
   */
  @Post(':id/runs')
  @HttpCode(200)
  @ApiKeyAllowed()
  @UseInterceptors(RedisUnavailableInterceptor)
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    required: true,
    schema: {
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary', description: 'The data file (.csv or .xlsx)' },
        templateFile: {
          type: 'string',
          format: 'binary',
          description: 'The template file (.csv or .xlsx); default: the mapping’s columns',
        },
        templateFileId: {
          type: 'string',
          description: 'Or an uploaded template (POST /api/upload/template) instead of templateFile',
        },
        async: { type: 'string', enum: ['true', 'false'], description: 'Run as a background job' },
      },
    },
  })
  @ApiResponse({ status: 202, type: QueuedResponse, description: 'Queued as a background job' })
  @ApiResponse({ status: 200, type: ProcessResponse, description: 'The mapped CSV' })
  @ApiResponse({ status: 422, type: SourceChangedBody, description: 'The file lacks mapped columns' })
  run(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ProcessResponse | QueuedResponse> {
    return this.runs.run(user, id, req, res);
  }

  /** A saved mapping's runs, newest first: who, when, rows read/written/already exported, totals */
  @Get(':id/runs')
  @ApiKeyAllowed()
  list(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Query() q: MappingRunsQuery,
  ): Promise<MappingRunsPage> {
    return this.runs.list(user, id, q);
  }
}
