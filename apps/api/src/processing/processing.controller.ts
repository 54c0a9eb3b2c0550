import { Body, Controller, HttpCode, Post, Res, UseGuards, UseInterceptors } from '@nestjs/common';
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
    @Res({ passthrough: true }) res: Response,
  ): Promise<ProcessResponse | QueuedResponse> {
    const result = await this.processing.process(user, parseProcessRequest(body));
    if ('jobId' in result) res.status(202);
    return result;
  }

  @Post('preview')
  @HttpCode(200)
  preview(@CurrentUser() user: AuthUser, @Body() body: unknown): Promise<PreviewResponse> {
    return this.processing.preview(user, parseProcessRequest(body));
  }
}
