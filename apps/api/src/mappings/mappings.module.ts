import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MappingsController } from './mappings.controller';
import { MappingsService } from './mappings.service';

/** Saved mapping configurations (spec saved_mappings) with plan limits, locks and source recognition. */
@Module({
  imports: [AuthModule],
  controllers: [MappingsController],
  providers: [MappingsService],
  exports: [MappingsService],
})
export class MappingsModule {}
