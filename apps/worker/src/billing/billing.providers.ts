import { Logger, type Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  BillingEventApplier,
  createStripeClient,
  PlanState,
  SimulatedSubscriptions,
  StripeSubscriptions,
  type SubscriptionSource,
} from '@csv-mapper/billing';
import { UserEntity } from '@csv-mapper/db';
import { WorkerConfig } from '../config/worker.config';

export const SUBSCRIPTION_SOURCE = Symbol('SUBSCRIPTION_SOURCE');

/**
 * Billing in the worker (libs/billing): subscriptions are read back from Stripe when it is configured,
 * else from the simulated provider's tables; the same PlanState the api uses writes the user.
 */
export const BILLING_PROVIDERS: Provider[] = [
  {
    provide: SUBSCRIPTION_SOURCE,
    inject: [WorkerConfig, DataSource],
    useFactory: (config: WorkerConfig, db: DataSource): SubscriptionSource =>
      config.stripe
        ? new StripeSubscriptions(createStripeClient(config.stripe.secretKey), config.stripe.prices)
        : new SimulatedSubscriptions(db),
  },
  {
    provide: PlanState,
    inject: [DataSource],
    useFactory: (db: DataSource) => new PlanState(db.getRepository(UserEntity), new Logger('PlanState')),
  },
  {
    provide: BillingEventApplier,
    inject: [DataSource, SUBSCRIPTION_SOURCE, PlanState],
    useFactory: (db: DataSource, source: SubscriptionSource, planState: PlanState) =>
      new BillingEventApplier(db, source, planState),
  },
];
