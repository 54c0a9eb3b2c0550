import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MappingsModule } from '../mappings/mappings.module';
import { UploadsController } from './uploads.controller';
import { UploadsService } from './uploads.service';

/** Uploaded CSV files: streamed through the engine's inspector into the ephemeral Redis store. */
@Module({
  imports: [AuthModule, MappingsModule],
  controllers: [UploadsController],
  providers: [UploadsService],
  exports: [UploadsService],
})
export class UploadsModule {}
