import { Body, Controller, Headers, HttpCode, Post, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import { ApiKeyAllowed } from '../auth/api-key-allowed.decorator';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { RedisUnavailableInterceptor } from '../jobs/redis-unavailable.interceptor';
import { parseProcessRequest } from './process-request';
import {
  ProcessingService,
  type PreviewResponse,
  type ProcessResponse,
  type QueuedResponse,
} from './processing.service';

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
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ProcessResponse | QueuedResponse> {
    const req = parseProcessRequest(body);
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
  preview(@CurrentUser() user: AuthUser, @Body() body: unknown): Promise<PreviewResponse> {
    return this.processing.preview(user, parseProcessRequest(body));
  }
}
