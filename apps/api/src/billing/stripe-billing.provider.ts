import Stripe from 'stripe';
import type { Repository } from 'typeorm';
import type { UserEntity } from '@csv-mapper/db';
import {
  createStripeClient,
  eventRefs,
  refId,
  StripeSubscriptions,
  WebhookSignatureError,
  type BillingProvider,
  type PaidPlan,
  type ProviderSubscription,
  type VerifiedEvent,
} from './billing-provider';

/** The parts of the Stripe client this provider calls (a test passes a fake with the same shape). */
export type StripeClient = Pick<Stripe, 'customers' | 'checkout' | 'subscriptions' | 'subscriptionSchedules'>;

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  prices: Record<PaidPlan, string>;
  appUrl: string;
}

const str = refId;

/**
 * Stripe Billing: Checkout Sessions in subscription mode, one customer per user, cancel at period end,
 * plan changes at the next cycle through a subscription schedule, and signature-checked webhooks.
 */
export class StripeBillingProvider implements BillingProvider {
  readonly kind = 'stripe' as const;
  /** Reading a subscription back is shared with the worker (libs/billing). */
  private readonly subscriptions: StripeSubscriptions;

  constructor(
    private readonly stripe: StripeClient,
    private readonly settings: StripeSettings,
    private readonly users: Repository<UserEntity>,
  ) {
    this.subscriptions = new StripeSubscriptions(stripe, settings.prices);
  }

  static create(settings: StripeSettings, users: Repository<UserEntity>): StripeBillingProvider {
    return new StripeBillingProvider(createStripeClient(settings.secretKey), settings, users);
  }

  async createCheckout(user: UserEntity, plan: PaidPlan): Promise<{ url: string }> {
    let customer = user.billingCustomerId;
    if (!customer) {
      const created = await this.stripe.customers.create(
        { email: user.email, metadata: { userId: user.id } },
        { idempotencyKey: `customer-${user.id}` },
      );
      customer = created.id;
      await this.users.update({ id: user.id }, { billingCustomerId: customer });
    }
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: user.id,
      line_items: [{ price: this.settings.prices[plan], quantity: 1 }],
      metadata: { userId: user.id, plan },
      subscription_data: { metadata: { userId: user.id, plan } },
      success_url: `${this.settings.appUrl}/csv-mapper?success=true`,
      cancel_url: `${this.settings.appUrl}/csv-mapper?canceled=true`,
    });
    if (!session.url) throw new Error('Stripe returned a checkout session without a url');
    return { url: session.url };
  }

  retrieveSubscription(id: string): Promise<ProviderSubscription | null> {
    return this.subscriptions.retrieveSubscription(id);
  }

  async setCancelAtPeriodEnd(id: string, cancel: boolean): Promise<ProviderSubscription> {
    // Stripe refuses cancellation changes on a subscription a schedule manages; going to Free replaces
    // any pending plan change, so the schedule is released (the subscription keeps its current plan).
    const sub = await this.stripe.subscriptions.retrieve(id);
    const scheduleId = str(sub.schedule);
    if (scheduleId) await this.stripe.subscriptionSchedules.release(scheduleId);
    return this.toProvider(await this.stripe.subscriptions.update(id, { cancel_at_period_end: cancel }));
  }

  async schedulePlanChange(id: string, plan: PaidPlan): Promise<ProviderSubscription> {
    const sub = await this.stripe.subscriptions.retrieve(id);
    // A cancelling subscription keeps running when the user picks another paid plan; this must happen
    // before a schedule takes the subscription over (Stripe then refuses direct cancellation changes).
    if (sub.cancel_at_period_end && !sub.schedule) {
      await this.stripe.subscriptions.update(id, { cancel_at_period_end: false });
    }
    const scheduleId =
      str(sub.schedule) ?? (await this.stripe.subscriptionSchedules.create({ from_subscription: id })).id;
    const schedule = await this.stripe.subscriptionSchedules.retrieve(scheduleId);
    // The phase running now (a schedule made earlier may already hold the next phase after it).
    const current =
      schedule.phases.find((p) => p.start_date === schedule.current_phase?.start_date) ?? schedule.phases[0];
    const currentPrice = str(sub.items.data[0]?.price);
    await this.stripe.subscriptionSchedules.update(scheduleId, {
      end_behavior: 'release',
      phases: [
        {
          items: [{ price: currentPrice as string, quantity: 1 }],
          start_date: current.start_date,
          end_date: current.end_date,
        },
        {
          items: [{ price: this.settings.prices[plan], quantity: 1 }],
          duration: { interval: 'month', interval_count: 1 },
        },
      ],
      metadata: { pendingPlan: plan },
    });
    return (await this.retrieveSubscription(id)) as ProviderSubscription;
  }

  async cancelNow(id: string): Promise<void> {
    await this.stripe.subscriptions.cancel(id);
  }

  verifyEvent(rawBody: Buffer, signature: string | undefined): VerifiedEvent {
    if (!signature) throw new WebhookSignatureError('Missing stripe-signature header');
    try {
      return eventRefs(Stripe.webhooks.constructEvent(rawBody, signature, this.settings.webhookSecret));
    } catch (err) {
      throw new WebhookSignatureError((err as Error).message);
    }
  }

  toProvider(sub: Stripe.Subscription): ProviderSubscription {
    return this.subscriptions.toProvider(sub);
  }
}
