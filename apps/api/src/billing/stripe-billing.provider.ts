import Stripe from 'stripe';
import type { Repository } from 'typeorm';
import type { UserEntity } from '@csv-mapper/db';
import {
  eventRefs,
  refId,
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

  constructor(
    private readonly stripe: StripeClient,
    private readonly settings: StripeSettings,
    private readonly users: Repository<UserEntity>,
  ) {}

  static create(settings: StripeSettings, users: Repository<UserEntity>): StripeBillingProvider {
    return new StripeBillingProvider(
      new Stripe(settings.secretKey, { maxNetworkRetries: 2, timeout: 15_000 }),
      settings,
      users,
    );
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

  async retrieveSubscription(id: string): Promise<ProviderSubscription | null> {
    try {
      return this.toProvider(await this.stripe.subscriptions.retrieve(id, { expand: ['schedule'] }));
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 404) return null;
      throw err;
    }
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

  private planOfPrice(priceId: string | null): PaidPlan | null {
    if (priceId === this.settings.prices.pro) return 'pro';
    if (priceId === this.settings.prices.business) return 'business';
    return null;
  }

  toProvider(sub: Stripe.Subscription): ProviderSubscription {
    const item = sub.items.data[0] as (Stripe.SubscriptionItem & { current_period_end?: number }) | undefined;
    const legacy = sub as unknown as { current_period_end?: number };
    const periodEnd = item?.current_period_end ?? legacy.current_period_end ?? null;
    const schedule = sub.schedule && typeof sub.schedule === 'object' ? sub.schedule : null;
    const pending = schedule?.metadata?.pendingPlan;
    return {
      id: sub.id,
      customerId: str(sub.customer) as string,
      userId: typeof sub.metadata?.userId === 'string' ? sub.metadata.userId : null,
      plan: this.planOfPrice(str(item?.price)),
      status: sub.status,
      cancelAtPeriodEnd: sub.cancel_at_period_end,
      cancelAt: sub.cancel_at ?? (sub.cancel_at_period_end ? periodEnd : null),
      currentPeriodEnd: periodEnd,
      pendingPlan: pending === 'pro' || pending === 'business' ? pending : null,
    };
  }
}
