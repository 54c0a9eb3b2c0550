import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { JobsModule } from '../jobs/jobs.module';
import { UploadsModule } from '../uploads/uploads.module';
import { ProcessingController } from './processing.controller';
import { ProcessingService } from './processing.service';

/** POST /api/process and its live preview: mapping an uploaded data file onto a template. */
@Module({
  imports: [AuthModule, UploadsModule, JobsModule],
  controllers: [ProcessingController],
  providers: [ProcessingService],
})
export class ProcessingModule {}
