import { ApiExcludeController } from '@nestjs/swagger';
import { Controller, Get, Header, Req } from '@nestjs/common';
import type { Request, Response } from 'express';
import { OperatorAuth } from './operator-auth.service';
import { MetricsService } from './metrics.service';

@Controller('metrics')
@ApiExcludeController()
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly operatorAuth: OperatorAuth,
  ) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async get(@Req() req: Request): Promise<string> {
    await this.operatorAuth.check(req, req.res as Response);
    req.res?.type(this.metrics.registry.contentType);
    return this.metrics.registry.metrics();
  }
}
