import Stripe from 'stripe';
import type { DataSource, Repository } from 'typeorm';
import type { UserEntity } from '@csv-mapper/db';
import type { ProviderSubscription } from './billing-provider';
import { BillingWebhookService } from './billing-webhook.service';
import type { PlanStateService } from './plan-state.service';
import { StripeBillingProvider, type StripeClient } from './stripe-billing.provider';

// The webhook handler with the Stripe provider behind a fake Stripe client: whatever the event's own
// copy of the subscription says, the state applied is the one retrieved from Stripe now.

const secret = 'whsec_webhook_unit';

function setup(current: Record<string, unknown>) {
  const retrieved: unknown[][] = [];
  const client = {
    subscriptions: {
      retrieve: async (...args: unknown[]) => {
        retrieved.push(args);
        return {
          id: 'sub_1',
          customer: 'cus_1',
          metadata: { userId: 'u1' },
          schedule: null,
          cancel_at: null,
          cancel_at_period_end: false,
          items: { data: [{ price: { id: 'price_pro' }, current_period_end: 1_900_000_000 }] },
          ...current,
        };
      },
    },
  } as unknown as StripeClient;
  const provider = new StripeBillingProvider(
    client,
    {
      secretKey: 'sk_test_x',
      webhookSecret: secret,
      prices: { pro: 'price_pro', business: 'price_b' },
      appUrl: '',
    },
    {} as Repository<UserEntity>,
  );
  const stored = new Set<string>();
  const db = {
    query: async (sql: string, params: string[]) => {
      if (sql.startsWith('INSERT')) {
        if (stored.has(params[0])) return [];
        stored.add(params[0]);
        return [{ id: params[0] }];
      }
      if (sql.startsWith('DELETE')) stored.delete(params[0]);
      return [];
    },
  } as unknown as DataSource;
  const applied: ProviderSubscription[] = [];
  const planState = {
    apply: async (sub: ProviderSubscription) => {
      applied.push(sub);
      return null;
    },
  } as unknown as PlanStateService;
  return { service: new BillingWebhookService(provider, db, planState), retrieved, applied, stored };
}

function signed(event: object) {
  const payload = JSON.stringify(event);
  return {
    raw: Buffer.from(payload),
    sig: Stripe.webhooks.generateTestHeaderString({ payload, secret }),
  };
}

describe('BillingWebhookService with the Stripe provider', () => {
  it('applies the subscription retrieved from Stripe, not the (older) copy inside the event', async () => {
    const { service, retrieved, applied } = setup({ status: 'canceled' });
    // a late "created" event still says active; Stripe says canceled now
    const { raw, sig } = signed({
      id: 'evt_late',
      type: 'customer.subscription.created',
      data: { object: { id: 'sub_1', customer: 'cus_1', status: 'active', metadata: { userId: 'u1' } } },
    });
    await expect(service.handle(raw, sig)).resolves.toEqual({ received: true });
    expect(retrieved).toEqual([['sub_1', { expand: ['schedule'] }]]);
    expect(applied).toHaveLength(1);
    expect(applied[0]).toMatchObject({ id: 'sub_1', status: 'canceled', userId: 'u1', plan: 'pro' });
  });

  it('finds the subscription of checkout.session.completed and of invoice events (new invoice shape too)', async () => {
    const { service, retrieved } = setup({ status: 'active' });
    for (const [id, type, object] of [
      [
        'evt_1',
        'checkout.session.completed',
        { id: 'cs_1', subscription: 'sub_1', client_reference_id: 'u1' },
      ],
      ['evt_2', 'invoice.paid', { id: 'in_1', subscription: 'sub_1' }],
      [
        'evt_3',
        'invoice.payment_failed',
        { id: 'in_2', parent: { subscription_details: { subscription: 'sub_1' } } },
      ],
    ] as const) {
      const { raw, sig } = signed({ id, type, data: { object } });
      await service.handle(raw, sig);
    }
    expect(retrieved.map((a) => a[0])).toEqual(['sub_1', 'sub_1', 'sub_1']);
  });

  it('a replayed event id is stored once and applied once; a bad signature is refused before anything', async () => {
    const { service, applied, stored } = setup({ status: 'active' });
    const { raw, sig } = signed({
      id: 'evt_dup',
      type: 'customer.subscription.updated',
      data: { object: { id: 'sub_1', customer: 'cus_1' } },
    });
    await service.handle(raw, sig);
    await expect(service.handle(raw, sig)).resolves.toEqual({ received: true, duplicate: true });
    expect(applied).toHaveLength(1);
    const forged = Stripe.webhooks.generateTestHeaderString({ payload: raw.toString(), secret: 'whsec_x' });
    const other = setup({ status: 'active' });
    await expect(other.service.handle(raw, forged)).rejects.toMatchObject({ status: 400 });
    expect(other.stored.size).toBe(0);
    expect(stored.size).toBe(1);
  });
});
