import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiKeyAllowed } from '../auth/api-key-allowed.decorator';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { parseProcessRequest } from './process-request';
import { ProcessingService, type PreviewResponse, type ProcessResponse } from './processing.service';

@Controller('process')
@UseGuards(AuthGuard)
export class ProcessingController {
  constructor(private readonly processing: ProcessingService) {}

  @Post()
  @HttpCode(200)
  @ApiKeyAllowed()
  process(@CurrentUser() user: AuthUser, @Body() body: unknown): Promise<ProcessResponse> {
    return this.processing.process(user, parseProcessRequest(body));
  }

  @Post('preview')
  @HttpCode(200)
  preview(@CurrentUser() user: AuthUser, @Body() body: unknown): Promise<PreviewResponse> {
    return this.processing.preview(user, parseProcessRequest(body));
  }
}
