import { Body, Controller, Param, Post, UseGuards } from '@nestjs/common';
import type { PresignedUploadView } from '@csv-mapper/contracts';
import { PresignUploadRequest } from '@csv-mapper/contracts';
import { ApiKeyAllowed } from '../auth/api-key-allowed.decorator';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { PresignedUploadsService } from './presigned-uploads.service';
import type { UploadRecord } from './upload-record';

/** Enterprise direct uploads: a presigned PUT to object storage, then `complete`. */
@Controller('upload')
@UseGuards(AuthGuard)
export class PresignedUploadsController {
  constructor(private readonly presigned: PresignedUploadsService) {}

  /** Get a presigned URL to PUT a CSV file straight to storage (Enterprise) */
  @Post('presign')
  @ApiKeyAllowed()
  presign(@CurrentUser() user: AuthUser, @Body() body: PresignUploadRequest): Promise<PresignedUploadView> {
    return this.presigned.presign(user, body);
  }

  /** Finish a direct upload: the stored file is checked and answered like POST /api/upload */
  @Post(':uploadId/complete')
  @ApiKeyAllowed()
  complete(@CurrentUser() user: AuthUser, @Param('uploadId') uploadId: string): Promise<UploadRecord> {
    return this.presigned.complete(user, uploadId);
  }
}
