import { Body, Controller, Headers, HttpCode, Post, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import { ApiKeyAllowed } from '../auth/api-key-allowed.decorator';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { RedisUnavailableInterceptor } from '../jobs/redis-unavailable.interceptor';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { ProcessRequest, ProcessResponse, QueuedResponse, type PreviewResponse } from '@csv-mapper/contracts';
import { ProcessingService } from './processing.service';

@Controller('process')
@UseGuards(AuthGuard)
@UseInterceptors(RedisUnavailableInterceptor)
export class ProcessingController {
  constructor(private readonly processing: ProcessingService) {}

  /**
   * Apply a mapping to an uploaded data file (sync answer with the CSV, or 202 with a background job)
   *
   * Template rules (`templateRules`, plus a built-in template's own) are checked on every row; each
   * failing cell is a warning with its `rule`, counted in `warningsByRule`. When a sync run has problems
   * its answer carries `reviewId`: use it as the job id of GET /api/jobs/{id}/issues, PATCH
   * /api/jobs/{id}/cells and POST /api/jobs/{id}/rerun, exactly as for a background job (the corrected
   * run is queued and downloaded from GET /api/jobs/{jobId}/result).
   */
  @Post()
  @HttpCode(200)
  @ApiKeyAllowed()
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Any unique string (a UUID): a repeat with the same key and body within 24 h answers the same (the same job) without running again; the same key with another body answers 422.',
    schema: { type: 'string', maxLength: 255 },
  })
  @ApiResponse({ status: 202, type: QueuedResponse, description: 'Queued as a background job' })
  @ApiResponse({ status: 200, type: ProcessResponse, description: 'The mapped CSV' })
  async process(
    @CurrentUser() user: AuthUser,
    @Body() req: ProcessRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ProcessResponse | QueuedResponse> {
    if (idempotencyKey === undefined) {
      const result = await this.processing.process(user, req);
      if ('jobId' in result) res.status(202);
      return result;
    }
    const {
      status,
      body: answer,
      replayed,
    } = await this.processing.processIdempotent(user, req, idempotencyKey);
    res.status(status);
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    return answer;
  }

  /** The first 10 rows a mapping would produce, with warnings (not counted against the quota) */
  @Post('preview')
  @HttpCode(200)
  @ApiKeyAllowed()
  preview(@CurrentUser() user: AuthUser, @Body() req: ProcessRequest): Promise<PreviewResponse> {
    return this.processing.preview(user, req);
  }
}
