import { Controller, Delete, Get, Param, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import { ApiOkResponse, ApiProduces } from '@nestjs/swagger';
import { pipeline } from 'node:stream/promises';
import { ApiKeyAllowed } from '../auth/api-key-allowed.decorator';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { JobsService, type JobView } from './jobs.service';
import { RedisUnavailableInterceptor } from './redis-unavailable.interceptor';

@Controller('jobs')
@UseGuards(AuthGuard)
@UseInterceptors(RedisUnavailableInterceptor)
@ApiKeyAllowed()
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  /** Your background jobs, newest first */
  @Get()
  list(@CurrentUser() user: AuthUser): Promise<JobView[]> {
    return this.jobs.list(user.teamId);
  }

  /** State and progress of a background job */
  @Get(':id')
  get(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<JobView> {
    return this.jobs.get(user.teamId, id);
  }

  /** Download the generated CSV (kept 1 hour) */
  @Get(':id/result')
  @ApiProduces('text/csv')
  @ApiOkResponse({
    description: 'The mapped CSV as a download (Content-Disposition: attachment)',
    content: { 'text/csv': { schema: { type: 'string', format: 'binary' } } },
  })
  async result(@CurrentUser() user: AuthUser, @Param('id') id: string, @Res() res: Response): Promise<void> {
    const { filename, size, stream } = await this.jobs.openResult(user.teamId, id);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Length', String(size));
    res.setHeader('Content-Disposition', `attachment; filename="${filename.replace(/"/g, '')}"`);
    res.setHeader('Cache-Control', 'no-store');
    await pipeline(stream, res);
  }

  /** Cancel a queued or running job */
  @Delete(':id')
  cancel(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<JobView> {
    return this.jobs.cancel(user.teamId, id);
  }
}
