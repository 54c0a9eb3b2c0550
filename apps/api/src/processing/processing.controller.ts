import { Body, Controller, Headers, HttpCode, Post, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import { ApiKeyAllowed } from '../auth/api-key-allowed.decorator';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { RedisUnavailableInterceptor } from '../jobs/redis-unavailable.interceptor';
import {
  ProcessRequest,
  type PreviewResponse,
  type ProcessResponse,
  type QueuedResponse,
} from '@csv-mapper/contracts';
import { ProcessingService } from './processing.service';

@Controller('process')
@UseGuards(AuthGuard)
@UseInterceptors(RedisUnavailableInterceptor)
export class ProcessingController {
  constructor(private readonly processing: ProcessingService) {}

  @Post()
  @HttpCode(200)
  @ApiKeyAllowed()
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

  @Post('preview')
  @HttpCode(200)
  @ApiKeyAllowed()
  preview(@CurrentUser() user: AuthUser, @Body() req: ProcessRequest): Promise<PreviewResponse> {
    return this.processing.preview(user, req);
  }
}
