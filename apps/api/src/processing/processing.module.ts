import { Module } from '@nestjs/common';
import { QuotaModule } from '../quota/quota.module';
import { AuthModule } from '../auth/auth.module';
import { JobsModule } from '../jobs/jobs.module';
import { MappingsModule } from '../mappings/mappings.module';
import { SuggestionsModule } from '../mappings/suggestions.module';
import { UploadsModule } from '../uploads/uploads.module';
import { MappingRunsController } from '../mappings/mapping-runs.controller';
import { MappingRunsService } from '../mappings/mapping-runs.service';
import { IdempotencyService } from './idempotency.service';
import { ProcessingController } from './processing.controller';
import { ProcessingService } from './processing.service';

/** POST /api/process and its live preview: mapping an uploaded data file onto a template. */
@Module({
  imports: [QuotaModule, AuthModule, UploadsModule, JobsModule, MappingsModule, SuggestionsModule],
  // POST/GET /api/mappings/:id/runs live here: they run a saved mapping through ProcessingService.
  controllers: [ProcessingController, MappingRunsController],
  providers: [ProcessingService, IdempotencyService, MappingRunsService],
  exports: [ProcessingService],
})
export class ProcessingModule {}
