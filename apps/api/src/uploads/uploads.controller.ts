import { Controller, Delete, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiKeyAllowed } from '../auth/api-key-allowed.decorator';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import type { UploadRecord } from './upload-record';
import { UploadsService } from './uploads.service';

/** POST /api/upload (multipart: file, type) and the published API's typed aliases. */
@Controller('upload')
@UseGuards(AuthGuard)
export class UploadsController {
  constructor(private readonly uploads: UploadsService) {}

  @Post()
  upload(
    @CurrentUser() user: AuthUser,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UploadRecord> {
    return this.uploads.receive(req, res, user);
  }

  @Post('template')
  @ApiKeyAllowed()
  uploadTemplate(
    @CurrentUser() user: AuthUser,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UploadRecord> {
    return this.uploads.receive(req, res, user, 'template');
  }

  @Post('data')
  @ApiKeyAllowed()
  uploadData(
    @CurrentUser() user: AuthUser,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UploadRecord> {
    return this.uploads.receive(req, res, user, 'data');
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiKeyAllowed()
  remove(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.uploads.remove(id, user.id);
  }
}
