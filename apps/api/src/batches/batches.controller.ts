import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Res,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import type { Response } from 'express';
import { ApiOkResponse, ApiProduces } from '@nestjs/swagger';
import { BatchCreatedResponse, BatchView, CreateBatchRequest } from '@csv-mapper/contracts';
import { ZipFile } from 'yazl';
import { pipeline } from 'node:stream/promises';
import { ApiKeyAllowed } from '../auth/api-key-allowed.decorator';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { RedisUnavailableInterceptor } from '../jobs/redis-unavailable.interceptor';
import { BatchesService } from './batches.service';

@Controller('batches')
@UseGuards(AuthGuard)
@UseInterceptors(RedisUnavailableInterceptor)
@ApiKeyAllowed()
export class BatchesController {
  constructor(private readonly batches: BatchesService) {}

  /** Map up to 20 uploaded data files with one template and mapping: one background job per file (Business and Enterprise) */
  @Post()
  @HttpCode(202)
  create(@CurrentUser() user: AuthUser, @Body() req: CreateBatchRequest): Promise<BatchCreatedResponse> {
    return this.batches.create(user, req);
  }

  /** Your recent bulk uploads (last 7 days), newest first */
  @Get()
  list(@CurrentUser() user: AuthUser): Promise<BatchView[]> {
    return this.batches.list(user);
  }

  /** Each file's state and progress, and the batch total */
  @Get(':id')
  get(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<BatchView> {
    return this.batches.get(user, id);
  }

  /** Download every completed file's result as one ZIP (streamed; once the batch has finished) */
  @Get(':id/result.zip')
  @ApiProduces('application/zip')
  @ApiOkResponse({
    description: 'A ZIP with one mapped CSV per completed file (Content-Disposition: attachment)',
    content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
  })
  async zip(@CurrentUser() user: AuthUser, @Param('id') id: string, @Res() res: Response): Promise<void> {
    const { filename, entries } = await this.batches.results(user, id);
    const zip = new ZipFile();
    for (const entry of entries) {
      // Opened when the archive reaches the entry: one result is read at a time, never the whole batch.
      zip.addReadStreamLazy(entry.name, (cb) => {
        entry.open().then(
          (stream) => cb(null, stream),
          (err: Error) => cb(err, null as never),
        );
      });
    }
    zip.end();
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
    res.setHeader('Cache-Control', 'no-store');
    await pipeline(zip.outputStream, res);
  }
}
