import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { JobsController } from './jobs.controller';
import { JobsService } from './jobs.service';
import { QuotaModule } from '../quota/quota.module';
import { ReviewController } from './review.controller';
import { ReviewService } from './review.service';

/** Background CSV jobs as the owner sees them: state, progress, result download, cancel; review and fix. */
@Module({
  imports: [AuthModule, QuotaModule],
  controllers: [JobsController, ReviewController],
  providers: [JobsService, ReviewService],
  exports: [JobsService, ReviewService],
})
export class JobsModule {}
