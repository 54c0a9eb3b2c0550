import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MappingsModule } from '../mappings/mappings.module';
import { SourceDriftService } from '../mappings/source-drift.service';
import { MultipartUploadReceiver } from './multipart-upload.interceptor';
import { PresignedUploadsController } from './presigned-uploads.controller';
import { PresignedUploadsService } from './presigned-uploads.service';
import { UploadsController } from './uploads.controller';
import { UploadsService } from './uploads.service';

/**
 * Uploaded CSV files and Excel workbooks: streamed into the BlobStore (CSV through the engine's inspector on
 * the way; a workbook inspected from the store) or PUT straight to object storage, read again with the
 * person's choices.
 */
@Module({
  imports: [AuthModule, MappingsModule],
  controllers: [UploadsController, PresignedUploadsController],
  providers: [UploadsService, MultipartUploadReceiver, PresignedUploadsService, SourceDriftService],
  exports: [UploadsService, MultipartUploadReceiver],
})
export class UploadsModule {}
