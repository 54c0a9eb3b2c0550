import Stripe from 'stripe';
import type { Repository } from 'typeorm';
import type { UserEntity } from '@csv-mapper/db';
import { WebhookSignatureError } from './billing-provider';
import { StripeBillingProvider, type StripeClient } from './stripe-billing.provider';

// The Stripe provider against a fake of the Stripe client's boundary (no network here): what it asks
// Stripe for, and how it reads Stripe's answers.

const settings = {
  secretKey: 'sk_test_x',
  webhookSecret: 'whsec_unit_test',
  prices: { pro: 'price_pro', business: 'price_business' },
  appUrl: 'https://app.example',
};

function subscription(over: Partial<Record<string, unknown>> = {}): Stripe.Subscription {
  return {
    id: 'sub_1',
    customer: 'cus_1',
    status: 'active',
    cancel_at_period_end: false,
    cancel_at: null,
    metadata: { userId: 'u1' },
    schedule: null,
    items: { data: [{ price: { id: 'price_business' }, current_period_end: 1_900_000_000 }] },
    ...over,
  } as unknown as Stripe.Subscription;
}

function fake(over: { sub?: Stripe.Subscription; schedule?: unknown } = {}) {
  const calls: { name: string; args: unknown[] }[] = [];
  const rec =
    (name: string, result: unknown) =>
    async (...args: unknown[]) => {
      calls.push({ name, args });
      return typeof result === 'function' ? (result as (...a: unknown[]) => unknown)(...args) : result;
    };
  const client = {
    customers: { create: rec('customers.create', { id: 'cus_new' }) },
    checkout: {
      sessions: {
        create: rec('checkout.sessions.create', { url: 'https://checkout.stripe.com/c/pay/cs_1' }),
      },
    },
    subscriptions: {
      retrieve: rec('subscriptions.retrieve', over.sub ?? subscription()),
      update: rec('subscriptions.update', subscription({ cancel_at_period_end: true })),
      cancel: rec('subscriptions.cancel', subscription({ status: 'canceled' })),
    },
    subscriptionSchedules: {
      create: rec('subscriptionSchedules.create', { id: 'sub_sched_1' }),
      retrieve: rec(
        'subscriptionSchedules.retrieve',
        over.schedule ?? {
          id: 'sub_sched_1',
          current_phase: { start_date: 1_800_000_000, end_date: 1_900_000_000 },
          phases: [{ start_date: 1_800_000_000, end_date: 1_900_000_000 }],
        },
      ),
      update: rec('subscriptionSchedules.update', { id: 'sub_sched_1' }),
      release: rec('subscriptionSchedules.release', { id: 'sub_sched_1' }),
    },
  } as unknown as StripeClient;
  const updates: unknown[] = [];
  const users = { update: async (...a: unknown[]) => updates.push(a) } as unknown as Repository<UserEntity>;
  return { provider: new StripeBillingProvider(client, settings, users), calls, updates };
}

const user = (over: Partial<UserEntity> = {}) =>
  ({ id: 'u1', email: 'ann@example.com', billingCustomerId: null, ...over }) as UserEntity;

describe('StripeBillingProvider', () => {
  it('creates the customer once, then a subscription-mode Checkout Session with the plan price', async () => {
    const { provider, calls, updates } = fake();
    const { url } = await provider.createCheckout(user(), 'pro');
    expect(url).toBe('https://checkout.stripe.com/c/pay/cs_1');
    expect(calls[0]).toMatchObject({
      name: 'customers.create',
      args: [{ email: 'ann@example.com', metadata: { userId: 'u1' } }, { idempotencyKey: 'customer-u1' }],
    });
    expect(updates).toEqual([[{ id: 'u1' }, { billingCustomerId: 'cus_new' }]]);
    expect(calls[1].args[0]).toMatchObject({
      mode: 'subscription',
      customer: 'cus_new',
      line_items: [{ price: 'price_pro', quantity: 1 }],
      subscription_data: { metadata: { userId: 'u1', plan: 'pro' } },
      success_url: 'https://app.example/csv-mapper?success=true',
      cancel_url: 'https://app.example/csv-mapper?canceled=true',
    });

    const again = fake();
    await again.provider.createCheckout(user({ billingCustomerId: 'cus_known' }), 'business');
    expect(again.calls.map((c) => c.name)).toEqual(['checkout.sessions.create']);
    expect(again.calls[0].args[0]).toMatchObject({
      customer: 'cus_known',
      line_items: [{ price: 'price_business' }],
    });
  });

  it('reads plan, period end (on the item, as in current API versions) and cancellation from a subscription', () => {
    const { provider } = fake();
    expect(provider.toProvider(subscription())).toEqual({
      id: 'sub_1',
      customerId: 'cus_1',
      userId: 'u1',
      plan: 'business',
      status: 'active',
      cancelAtPeriodEnd: false,
      cancelAt: null,
      currentPeriodEnd: 1_900_000_000,
      pendingPlan: null,
    });
    const cancelling = provider.toProvider(subscription({ cancel_at_period_end: true }));
    expect(cancelling.cancelAt).toBe(1_900_000_000);
    const scheduled = provider.toProvider(
      subscription({ schedule: { id: 's', metadata: { pendingPlan: 'pro' } } }),
    );
    expect(scheduled.pendingPlan).toBe('pro');
  });

  it('cancels at period end, and schedules a plan change for the next period with a subscription schedule', async () => {
    const { provider, calls } = fake();
    await provider.setCancelAtPeriodEnd('sub_1', true);
    expect(calls.map((c) => c.name)).toEqual(['subscriptions.retrieve', 'subscriptions.update']);
    expect(calls[1]).toEqual({
      name: 'subscriptions.update',
      args: ['sub_1', { cancel_at_period_end: true }],
    });

    const s = fake();
    await s.provider.schedulePlanChange('sub_1', 'pro');
    const update = s.calls.find((c) => c.name === 'subscriptionSchedules.update');
    expect(s.calls[1]).toEqual({
      name: 'subscriptionSchedules.create',
      args: [{ from_subscription: 'sub_1' }],
    });
    expect(update?.args[1]).toMatchObject({
      end_behavior: 'release',
      phases: [
        {
          items: [{ price: 'price_business', quantity: 1 }],
          start_date: 1_800_000_000,
          end_date: 1_900_000_000,
        },
        { items: [{ price: 'price_pro', quantity: 1 }] },
      ],
    });
  });

  it('verifies webhook signatures with the configured secret', () => {
    const { provider } = fake();
    const payload = JSON.stringify({
      id: 'evt_1',
      type: 'customer.subscription.updated',
      data: { object: { id: 'sub_1', customer: 'cus_1', metadata: { userId: 'u1' } } },
    });
    const ok = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_unit_test' });
    expect(provider.verifyEvent(Buffer.from(payload), ok)).toEqual({
      id: 'evt_1',
      type: 'customer.subscription.updated',
      subscriptionId: 'sub_1',
      customerId: 'cus_1',
      userId: 'u1',
    });
    const wrong = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' });
    expect(() => provider.verifyEvent(Buffer.from(payload), wrong)).toThrow(WebhookSignatureError);
    expect(() => provider.verifyEvent(Buffer.from(payload), undefined)).toThrow(WebhookSignatureError);
    const stale = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: 'whsec_unit_test',
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    expect(() => provider.verifyEvent(Buffer.from(payload), stale)).toThrow(WebhookSignatureError);
  });

  it('going to Free with a plan change pending releases the schedule before cancelling at period end', async () => {
    const { provider, calls } = fake({ sub: subscription({ schedule: 'sub_sched_9' }) });
    await provider.setCancelAtPeriodEnd('sub_1', true);
    expect(calls.map((c) => [c.name, c.args[0]])).toEqual([
      ['subscriptions.retrieve', 'sub_1'],
      ['subscriptionSchedules.release', 'sub_sched_9'],
      ['subscriptions.update', 'sub_1'],
    ]);
  });

  it('a plan change while cancelling first keeps the subscription, and reuses an existing schedule at its current phase', async () => {
    const cancelling = fake({ sub: subscription({ cancel_at_period_end: true }) });
    await cancelling.provider.schedulePlanChange('sub_1', 'pro');
    expect(cancelling.calls.slice(0, 3).map((c) => [c.name, c.args[0]])).toEqual([
      ['subscriptions.retrieve', 'sub_1'],
      ['subscriptions.update', 'sub_1'],
      ['subscriptionSchedules.create', { from_subscription: 'sub_1' }],
    ]);
    expect(cancelling.calls[1].args[1]).toEqual({ cancel_at_period_end: false });

    // already scheduled (phases: now, then the next plan): the running phase is kept, not the future one
    const again = fake({
      sub: subscription({ schedule: 'sub_sched_1' }),
      schedule: {
        id: 'sub_sched_1',
        current_phase: { start_date: 1_800_000_000, end_date: 1_900_000_000 },
        phases: [
          { start_date: 1_800_000_000, end_date: 1_900_000_000 },
          { start_date: 1_900_000_000, end_date: 1_902_600_000 },
        ],
      },
    });
    await again.provider.schedulePlanChange('sub_1', 'pro');
    expect(again.calls.some((c) => c.name === 'subscriptionSchedules.create')).toBe(false);
    const update = again.calls.find((c) => c.name === 'subscriptionSchedules.update');
    expect(update?.args[1]).toMatchObject({
      phases: [{ start_date: 1_800_000_000, end_date: 1_900_000_000 }, { items: [{ price: 'price_pro' }] }],
    });
  });
});
