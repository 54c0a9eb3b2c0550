import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { JobsModule } from '../jobs/jobs.module';
import { ProcessingModule } from '../processing/processing.module';
import { QuotaModule } from '../quota/quota.module';
import { UploadsModule } from '../uploads/uploads.module';
import { BatchesController } from './batches.controller';
import { BatchesService } from './batches.service';

/** Bulk uploads: one template and mapping over up to 20 data files, a job per file, one ZIP. */
@Module({
  imports: [AuthModule, JobsModule, ProcessingModule, QuotaModule, UploadsModule],
  controllers: [BatchesController],
  providers: [BatchesService],
})
export class BatchesModule {}
