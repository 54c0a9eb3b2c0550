import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MappingsController } from './mappings.controller';
import { MappingsService } from './mappings.service';
import { RUN_HISTORY_PROVIDER } from './run-history.provider';

/** Saved mapping configurations (spec saved_mappings) with plan limits, locks and source recognition. */
@Module({
  imports: [AuthModule],
  controllers: [MappingsController],
  providers: [MappingsService, RUN_HISTORY_PROVIDER],
  exports: [MappingsService, RUN_HISTORY_PROVIDER],
})
export class MappingsModule {}
