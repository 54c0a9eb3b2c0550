import type { UserEntity } from '@csv-mapper/db';

// The payment provider behind one interface: Stripe when it is configured, otherwise the simulated
// provider (development and tests) that walks the same subscription state machine (ARCHITECTURE §7).

export const PAID_PLANS = ['pro', 'business'] as const;
export type PaidPlan = (typeof PAID_PLANS)[number];

export function isPaidPlan(v: unknown): v is PaidPlan {
  return v === 'pro' || v === 'business';
}

/** Statuses in which the subscriber has the plan's features. */
export const LIVE_STATUSES = new Set(['active', 'trialing', 'past_due']);
/** Statuses after which the user is back on Free. */
export const ENDED_STATUSES = new Set(['canceled', 'incomplete_expired', 'unpaid']);

/** A subscription as the provider reports it now (the source of truth, whatever order events came in). */
export interface ProviderSubscription {
  id: string;
  customerId: string;
  /** Our user id from the subscription's metadata, when present. */
  userId: string | null;
  plan: PaidPlan | null;
  status: string;
  cancelAtPeriodEnd: boolean;
  /** Epoch seconds. */
  cancelAt: number | null;
  currentPeriodEnd: number | null;
  /** A plan change scheduled for the end of the current period. */
  pendingPlan: PaidPlan | null;
}

/** What the webhook handler needs from a verified event. */
export interface VerifiedEvent {
  id: string;
  type: string;
  subscriptionId: string | null;
  customerId: string | null;
  userId: string | null;
}

/** The event types we act on (subscribe to exactly these in the Stripe dashboard). */
export const HANDLED_EVENTS = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
]);

/** Reads a subscription as the provider holds it now: all the worker needs to apply events and reconcile. */
export interface SubscriptionSource {
  readonly kind: 'stripe' | 'simulated';
  retrieveSubscription(id: string): Promise<ProviderSubscription | null>;
}

export interface BillingProvider extends SubscriptionSource {
  /** Starts a subscription checkout; the browser goes to `url`. */
  createCheckout(user: UserEntity, plan: PaidPlan): Promise<{ url: string }>;
  setCancelAtPeriodEnd(id: string, cancel: boolean): Promise<ProviderSubscription>;
  /** Switches to `plan` at the end of the current billing period. */
  schedulePlanChange(id: string, plan: PaidPlan): Promise<ProviderSubscription>;
  /** Ends the subscription at once (account deletion). */
  cancelNow(id: string): Promise<void>;
  /** Checks the signature on the raw body; throws WebhookSignatureError when it does not hold. */
  verifyEvent(rawBody: Buffer, signature: string | undefined): VerifiedEvent;
}

export class WebhookSignatureError extends Error {}

/** A Stripe reference as an id: Stripe sends either the id or the expanded object that has it. */
export function refId(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { id?: unknown }).id === 'string')
    return (v as { id: string }).id;
  return null;
}

/** The ids a Stripe-shaped event carries, wherever its object keeps them. */
export function eventRefs(event: { id: string; type: string; data: { object: unknown } }): VerifiedEvent {
  const o = (event.data?.object ?? {}) as Record<string, unknown>;
  const str = refId;
  const metadata = (o.metadata ?? {}) as Record<string, unknown>;
  let subscriptionId: string | null = null;
  if (event.type.startsWith('customer.subscription.')) subscriptionId = str(o.id);
  else if (event.type.startsWith('checkout.session.')) subscriptionId = str(o.subscription);
  else if (event.type.startsWith('invoice.')) {
    const parent = (o.parent ?? {}) as { subscription_details?: { subscription?: unknown } };
    subscriptionId = str(o.subscription) ?? str(parent.subscription_details?.subscription);
  }
  return {
    id: event.id,
    type: event.type,
    subscriptionId,
    customerId: str(o.customer),
    userId:
      typeof metadata.userId === 'string'
        ? metadata.userId
        : typeof o.client_reference_id === 'string'
          ? o.client_reference_id
          : null,
  };
}
