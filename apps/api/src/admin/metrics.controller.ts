import { Controller, Get, Header, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AppError } from '../common/app-error';
import { ApiConfig } from '../config/api.config';
import { isOperator } from './operator-auth';
import { MetricsService } from './metrics.service';

@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly config: ApiConfig,
  ) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async get(@Req() req: Request): Promise<string> {
    const op = this.config.operator;
    if (!op) throw new AppError(404, 'NOT_FOUND', 'No API route matches GET /api/metrics.');
    if (!isOperator(req.headers.authorization, op))
      throw new AppError(401, 'UNAUTHORIZED', 'Operator credentials required.');
    req.res?.type(this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}
