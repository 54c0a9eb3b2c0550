import { Global, Module } from '@nestjs/common';
import { getRepositoryToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { UserEntity } from '@csv-mapper/db';
import { AuthModule } from '../auth/auth.module';
import { ApiConfig } from '../config/api.config';
import { BILLING_PROVIDER } from './billing-provider';
import { BillingWebhookService } from './billing-webhook.service';
import { BillingController } from './billing.controller';
import { BillingService } from './billing.service';
import { PlanStateService } from './plan-state.service';
import { SimulatedBillingController } from './simulated-billing.controller';
import { SimulatedBillingProvider } from './simulated-billing.provider';
import { StripeBillingProvider } from './stripe-billing.provider';

/** Plans and billing (ARCHITECTURE §7). Global so account deletion can cancel a subscription. */
@Global()
@Module({
  imports: [AuthModule, TypeOrmModule.forFeature([UserEntity])],
  controllers: [BillingController, SimulatedBillingController],
  providers: [
    {
      provide: BILLING_PROVIDER,
      inject: [ApiConfig, DataSource, getRepositoryToken(UserEntity)],
      useFactory: (config: ApiConfig, db: DataSource, users: Repository<UserEntity>) =>
        config.stripe
          ? StripeBillingProvider.create({ ...config.stripe, appUrl: config.appUrl }, users)
          : new SimulatedBillingProvider(db, config.appUrl),
    },
    PlanStateService,
    BillingService,
    BillingWebhookService,
  ],
  exports: [BillingService],
})
export class BillingModule {}
