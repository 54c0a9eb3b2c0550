import Stripe from 'stripe';
import type { DataSource, Repository } from 'typeorm';
import type { UserEntity } from '@csv-mapper/db';
import type { JobProducer } from '@csv-mapper/queue';
import { BillingEventApplier, type PlanState, type ProviderSubscription } from './billing-provider';
import { BillingWebhookService } from './billing-webhook.service';
import { StripeBillingProvider, type StripeClient } from './stripe-billing.provider';

// The webhook handler with the Stripe provider behind a fake Stripe client, and the worker's applier
// (libs/billing) on the same fakes: the handler stores and queues, never applies; whatever the event's own
// copy of the subscription says, the state applied is the one retrieved from Stripe now.

const secret = 'whsec_webhook_unit';

interface Row {
  type: string;
  payload: unknown;
  processed: boolean;
}

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
  // billing_events as the SQL of libs/billing uses it
  const stored = new Map<string, Row>();
  const db = {
    query: async (sql: string, params: string[]) => {
      const row = stored.get(params[0]);
      if (sql.startsWith('INSERT')) {
        if (row) return [];
        stored.set(params[0], { type: params[1], payload: JSON.parse(params[2]), processed: false });
        return [{ id: params[0] }];
      }
      if (sql.startsWith('SELECT processed_at'))
        return row ? [{ processed_at: row.processed ? new Date() : null }] : [];
      if (sql.startsWith('SELECT 1')) return row ? [{}] : [];
      if (sql.includes('SET attempts')) return [row && !row.processed ? [row] : [], row ? 1 : 0];
      if (sql.includes('SET processed_at') && row) row.processed = true;
      return [[], 0];
    },
  } as unknown as DataSource;
  const queued: unknown[][] = [];
  const jobs = { enqueue: async (...args: unknown[]) => queued.push(args) } as unknown as JobProducer;
  const applied: ProviderSubscription[] = [];
  const planState = {
    apply: async (sub: ProviderSubscription) => {
      applied.push(sub);
      return null;
    },
  } as unknown as PlanState;
  return {
    service: new BillingWebhookService(provider, db, jobs),
    applier: new BillingEventApplier(db, provider, planState),
    retrieved,
    applied,
    stored,
    queued,
  };
}

function signed(event: object) {
  const payload = JSON.stringify(event);
  return {
    raw: Buffer.from(payload),
    sig: Stripe.webhooks.generateTestHeaderString({ payload, secret }),
  };
}

describe('BillingWebhookService with the Stripe provider', () => {
  it('stores and queues the verified event without reading Stripe; the applier then applies what Stripe says now', async () => {
    const { service, applier, retrieved, applied, queued } = setup({ status: 'canceled' });
    // a late "created" event still says active; Stripe says canceled now
    const { raw, sig } = signed({
      id: 'evt_late',
      type: 'customer.subscription.created',
      data: { object: { id: 'sub_1', customer: 'cus_1', status: 'active', metadata: { userId: 'u1' } } },
    });
    await expect(service.handle(raw, sig)).resolves.toEqual({ received: true });
    expect(retrieved).toEqual([]);
    expect(queued).toEqual([
      ['billing', 'apply-event', { eventId: 'evt_late' }, { dedupeKey: 'evt_late', attempts: 8 }],
    ]);
    await expect(applier.apply('evt_late')).resolves.toBe('applied');
    expect(retrieved).toEqual([['sub_1', { expand: ['schedule'] }]]);
    expect(applied).toHaveLength(1);
    expect(applied[0]).toMatchObject({ id: 'sub_1', status: 'canceled', userId: 'u1', plan: 'pro' });
  });

  it('finds the subscription of checkout.session.completed and of invoice events (new invoice shape too)', async () => {
    const { service, applier, retrieved } = setup({ status: 'active' });
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
      await applier.apply(id);
    }
    expect(retrieved.map((a) => a[0])).toEqual(['sub_1', 'sub_1', 'sub_1']);
  });

  it('a replayed event id is stored once and applied once; a bad signature is refused before anything', async () => {
    const { service, applier, applied, stored, queued } = setup({ status: 'active' });
    const { raw, sig } = signed({
      id: 'evt_dup',
      type: 'customer.subscription.updated',
      data: { object: { id: 'sub_1', customer: 'cus_1' } },
    });
    await service.handle(raw, sig);
    // a duplicate before the worker applied it is queued again under the same job id (one job)
    await expect(service.handle(raw, sig)).resolves.toEqual({ received: true, duplicate: true });
    expect(queued.map((q) => (q[3] as { dedupeKey: string }).dedupeKey)).toEqual(['evt_dup', 'evt_dup']);
    await applier.apply('evt_dup');
    await expect(applier.apply('evt_dup')).resolves.toBe('already-applied');
    // once applied, a replay is not queued at all
    await expect(service.handle(raw, sig)).resolves.toEqual({ received: true, duplicate: true });
    expect(queued).toHaveLength(2);
    expect(applied).toHaveLength(1);
    const forged = Stripe.webhooks.generateTestHeaderString({ payload: raw.toString(), secret: 'whsec_x' });
    const other = setup({ status: 'active' });
    await expect(other.service.handle(raw, forged)).rejects.toMatchObject({ status: 400 });
    expect(other.stored.size).toBe(0);
    expect(stored.size).toBe(1);
  });
});
