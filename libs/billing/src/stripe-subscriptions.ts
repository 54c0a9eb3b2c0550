import Stripe from 'stripe';
import { refId, type PaidPlan, type ProviderSubscription, type SubscriptionSource } from './billing-provider';

/** The Stripe client's subscription reads (a test passes a fake with the same shape). */
export type StripeSubscriptionsClient = Pick<Stripe, 'subscriptions'>;

/** One Stripe client per process, with the retries and timeout the api and worker both use. */
export function createStripeClient(secretKey: string): Stripe {
  return new Stripe(secretKey, { maxNetworkRetries: 2, timeout: 15_000 });
}

/**
 * A subscription as Stripe holds it now, in our terms: the plan from the price id, the period end from the
 * item (or the older top-level field), a pending plan from the schedule's metadata.
 */
export class StripeSubscriptions implements SubscriptionSource {
  readonly kind = 'stripe' as const;

  constructor(
    private readonly stripe: StripeSubscriptionsClient,
    private readonly prices: Record<PaidPlan, string>,
  ) {}

  async retrieveSubscription(id: string): Promise<ProviderSubscription | null> {
    try {
      return this.toProvider(await this.stripe.subscriptions.retrieve(id, { expand: ['schedule'] }));
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 404) return null;
      throw err;
    }
  }

  toProvider(sub: Stripe.Subscription): ProviderSubscription {
    const item = sub.items.data[0] as (Stripe.SubscriptionItem & { current_period_end?: number }) | undefined;
    const legacy = sub as Stripe.Subscription & { current_period_end?: number };
    const periodEnd = item?.current_period_end ?? legacy.current_period_end ?? null;
    const schedule = sub.schedule && typeof sub.schedule === 'object' ? sub.schedule : null;
    const pending = schedule?.metadata?.pendingPlan;
    return {
      id: sub.id,
      customerId: refId(sub.customer) as string,
      userId: typeof sub.metadata?.userId === 'string' ? sub.metadata.userId : null,
      plan: this.planOfPrice(refId(item?.price)),
      status: sub.status,
      cancelAtPeriodEnd: sub.cancel_at_period_end,
      cancelAt: sub.cancel_at ?? (sub.cancel_at_period_end ? periodEnd : null),
      currentPeriodEnd: periodEnd,
      pendingPlan: pending === 'pro' || pending === 'business' ? pending : null,
    };
  }

  private planOfPrice(priceId: string | null): PaidPlan | null {
    if (priceId === this.prices.pro) return 'pro';
    if (priceId === this.prices.business) return 'business';
    return null;
  }
}
