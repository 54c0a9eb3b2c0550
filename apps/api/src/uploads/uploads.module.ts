import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MappingsModule } from '../mappings/mappings.module';
import { UploadsController } from './uploads.controller';
import { UploadsService } from './uploads.service';

/**
 * Uploaded CSV files and Excel workbooks: streamed into the ephemeral Redis store (CSV through the engine's
 * inspector on the way; a workbook inspected from the store), read again with the person's choices.
 */
@Module({
  imports: [AuthModule, MappingsModule],
  controllers: [UploadsController],
  providers: [UploadsService],
  exports: [UploadsService],
})
export class UploadsModule {}
