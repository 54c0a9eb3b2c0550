import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MappingsModule } from '../mappings/mappings.module';
import { PresignedUploadsController } from './presigned-uploads.controller';
import { PresignedUploadsService } from './presigned-uploads.service';
import { UploadsController } from './uploads.controller';
import { UploadsService } from './uploads.service';

/** Uploaded CSV files: streamed through the engine's inspector into the BlobStore (or PUT straight to object storage). */
@Module({
  imports: [AuthModule, MappingsModule],
  controllers: [UploadsController, PresignedUploadsController],
  providers: [UploadsService, PresignedUploadsService],
  exports: [UploadsService],
})
export class UploadsModule {}
