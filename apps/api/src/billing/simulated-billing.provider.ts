import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { DataSource } from 'typeorm';
import type { SimulatedSessionView } from '@csv-mapper/contracts';
import type { UserEntity } from '@csv-mapper/db';
import { planOf } from '@csv-mapper/domain';
import { AppError } from '../common/app-error';
import {
  eventRefs,
  isPaidPlan,
  secs,
  SimulatedSubscriptions,
  toProviderSubscription,
  WebhookSignatureError,
  type BillingProvider,
  type PaidPlan,
  type ProviderSubscription,
  type SimSubscriptionRow,
  type VerifiedEvent,
} from './billing-provider';

const DAY = 86_400;
const PERIOD = 30 * DAY;
/** Stripe expires a subscription whose first payment never succeeds after 23 hours. */
const INCOMPLETE_EXPIRES_AFTER = 23 * 3600;
/** Stripe's default lifetime of a Checkout Session. */
const SESSION_LIFETIME = DAY;

/** A checkout session as the simulated checkout page reads it. */
export type SimSession = SimulatedSessionView;

/** Delivers a signed event body to the webhook handler (the same code path Stripe's deliveries take). */
export type EventSink = (rawBody: Buffer, signature: string) => Promise<void>;

const newId = (prefix: string) => `${prefix}_sim_${randomBytes(12).toString('hex')}`;

/**
 * Stripe's subscription life cycle, in-process, for development and tests: checkout sessions, customers,
 * subscriptions with 30-day periods, cancel at period end, scheduled plan changes, failed first payments
 * that expire, and a clock that can be moved forward. Every change is announced as a Stripe-shaped event
 * signed with a local secret and fed to the same webhook handler a real Stripe delivery reaches.
 */
export class SimulatedBillingProvider implements BillingProvider {
  readonly kind = 'simulated' as const;
  /** Local signing secret, per process start (events never leave the process). */
  private readonly secret = `whsec_${randomBytes(24).toString('base64')}`;
  private sink: EventSink | null = null;
  private readonly subscriptions: SimulatedSubscriptions;

  constructor(
    private readonly db: DataSource,
    private readonly appUrl: string,
  ) {
    this.subscriptions = new SimulatedSubscriptions(db);
  }

  onEvent(sink: EventSink): void {
    this.sink = sink;
  }

  async now(): Promise<number> {
    const [row] = await this.db.query(`SELECT offset_seconds FROM sim_clock WHERE id = 1`);
    return Math.floor(Date.now() / 1000) + Number(row?.offset_seconds ?? 0);
  }

  async createCheckout(user: UserEntity, plan: PaidPlan): Promise<{ url: string }> {
    const id = newId('cs');
    // created_at on the simulated clock, so moving the clock forward expires open sessions as Stripe would
    await this.db.query(
      `INSERT INTO sim_checkout_sessions (id, user_id, plan, created_at) VALUES ($1, $2, $3, to_timestamp($4))`,
      [id, user.id, plan, await this.now()],
    );
    return { url: `${this.appUrl}/billing/checkout/${id}` };
  }

  async session(id: string, user: UserEntity): Promise<SimSession> {
    const [row] = await this.db.query(`SELECT * FROM sim_checkout_sessions WHERE id = $1 AND user_id = $2`, [
      id,
      user.id,
    ]);
    if (!row || !isPaidPlan(row.plan))
      throw new AppError(404, 'NOT_FOUND', 'This checkout session does not exist.');
    // Stripe expires an unpaid Checkout Session after 24 hours.
    if (row.status === 'open' && secs(row.created_at) + SESSION_LIFETIME <= (await this.now())) {
      await this.db.query(
        `UPDATE sim_checkout_sessions SET status = 'expired' WHERE id = $1 AND status = 'open'`,
        [id],
      );
      row.status = 'expired';
    }
    const p = planOf(row.plan);
    return {
      id,
      plan: row.plan,
      planName: p.name,
      price: p.price,
      priceGbp: p.priceGbp ?? 0,
      email: user.email,
      status: row.status,
    };
  }

  /** The simulated checkout page's buttons. Returns where the browser goes next. */
  async completeSession(
    id: string,
    user: UserEntity,
    outcome: 'pay' | 'decline' | 'cancel',
  ): Promise<string> {
    const s = await this.session(id, user);
    // Closing the session is the atomic step: of two concurrent clicks only one gets past it.
    // (TypeORM answers an UPDATE on Postgres with [rows, affected].)
    const [, affected] = (await this.db.query(
      `UPDATE sim_checkout_sessions SET status = $2 WHERE id = $1 AND status = 'open'`,
      [id, outcome === 'cancel' ? 'expired' : 'complete'],
    )) as [unknown[], number];
    if (affected !== 1)
      throw new AppError(
        409,
        'SESSION_CLOSED',
        'This checkout session is already closed. Start again from your profile.',
      );
    if (outcome === 'cancel') return '/csv-mapper?canceled=true';
    const customerId = user.billingCustomerId ?? newId('cus');
    const now = await this.now();
    const subId = newId('sub');
    const status = outcome === 'pay' ? 'active' : 'incomplete';
    await this.db.query(
      `INSERT INTO sim_subscriptions (id, user_id, customer_id, plan, status, current_period_start, current_period_end, created_at)
       VALUES ($1, $2, $3, $4, $5, to_timestamp($6), to_timestamp($7), to_timestamp($6))`,
      [subId, user.id, customerId, s.plan, status, now, now + PERIOD],
    );
    const sub = (await this.row(subId)) as SimSubscriptionRow;
    if (outcome === 'pay') {
      await this.emit('checkout.session.completed', {
        object: 'checkout.session',
        id,
        customer: customerId,
        subscription: subId,
        client_reference_id: user.id,
        metadata: { userId: user.id, plan: s.plan },
      });
      await this.emit('customer.subscription.created', this.stripeShape(sub));
      await this.emit('invoice.paid', this.invoice(sub));
    } else {
      await this.emit('customer.subscription.created', this.stripeShape(sub));
      await this.emit('invoice.payment_failed', this.invoice(sub));
    }
    return '/csv-mapper?success=true';
  }

  retrieveSubscription(id: string): Promise<ProviderSubscription | null> {
    return this.subscriptions.retrieveSubscription(id);
  }

  async setCancelAtPeriodEnd(id: string, cancel: boolean): Promise<ProviderSubscription> {
    await this.db.query(`UPDATE sim_subscriptions SET cancel_at_period_end = $2 WHERE id = $1`, [id, cancel]);
    return this.changed(id);
  }

  async schedulePlanChange(id: string, plan: PaidPlan): Promise<ProviderSubscription> {
    await this.db.query(
      `UPDATE sim_subscriptions SET pending_plan = $2, cancel_at_period_end = false WHERE id = $1`,
      [id, plan],
    );
    return this.changed(id);
  }

  async cancelNow(id: string): Promise<void> {
    await this.db.query(`UPDATE sim_subscriptions SET status = 'canceled' WHERE id = $1`, [id]);
    const row = await this.row(id);
    if (row) await this.emit('customer.subscription.deleted', this.stripeShape(row));
  }

  /** Test call: the first payment of an incomplete subscription goes through. */
  async payIncomplete(id: string, userId: string): Promise<ProviderSubscription> {
    const row = await this.row(id);
    if (!row || row.user_id !== userId)
      throw new AppError(404, 'NOT_FOUND', 'No such subscription on your account.');
    if (row.status !== 'incomplete') {
      throw new AppError(
        409,
        'NOT_INCOMPLETE',
        `This subscription is ${row.status}, not waiting for a payment.`,
      );
    }
    const now = await this.now();
    await this.db.query(
      `UPDATE sim_subscriptions SET status = 'active', current_period_start = to_timestamp($2), current_period_end = to_timestamp($3) WHERE id = $1`,
      [id, now, now + PERIOD],
    );
    const sub = (await this.row(id)) as SimSubscriptionRow;
    await this.emit('invoice.paid', this.invoice(sub));
    await this.emit('customer.subscription.updated', this.stripeShape(sub));
    return toProviderSubscription(sub);
  }

  /** Test call: forgets a subscription that never got paid. */
  async discard(id: string, userId: string): Promise<void> {
    await this.db.query(
      `DELETE FROM sim_subscriptions WHERE id = $1 AND user_id = $2 AND status IN ('incomplete', 'incomplete_expired')`,
      [id, userId],
    );
  }

  /** Test call: moves the clock forward and runs every renewal, cancellation and expiry that fell due. */
  async advance(days: number): Promise<number> {
    await this.db.query(`UPDATE sim_clock SET offset_seconds = offset_seconds + $1 WHERE id = 1`, [
      Math.round(days * DAY),
    ]);
    const now = await this.now();
    const due: SimSubscriptionRow[] = await this.db.query(
      `SELECT * FROM sim_subscriptions
        WHERE (status IN ('active', 'trialing', 'past_due') AND current_period_end <= to_timestamp($1))
           OR (status = 'incomplete' AND created_at <= to_timestamp($2))`,
      [now, now - INCOMPLETE_EXPIRES_AFTER],
    );
    for (const sub of due) {
      if (sub.status === 'incomplete') {
        await this.db.query(`UPDATE sim_subscriptions SET status = 'incomplete_expired' WHERE id = $1`, [
          sub.id,
        ]);
        await this.emit(
          'customer.subscription.updated',
          this.stripeShape((await this.row(sub.id)) as SimSubscriptionRow),
        );
      } else if (sub.cancel_at_period_end) {
        await this.db.query(`UPDATE sim_subscriptions SET status = 'canceled' WHERE id = $1`, [sub.id]);
        await this.emit(
          'customer.subscription.deleted',
          this.stripeShape((await this.row(sub.id)) as SimSubscriptionRow),
        );
      } else {
        let end = secs(sub.current_period_end);
        let start = end;
        while (end <= now) {
          start = end;
          end += PERIOD;
        }
        await this.db.query(
          `UPDATE sim_subscriptions SET current_period_start = to_timestamp($2), current_period_end = to_timestamp($3),
             plan = COALESCE(pending_plan, plan), pending_plan = NULL WHERE id = $1`,
          [sub.id, start, end],
        );
        const renewed = (await this.row(sub.id)) as SimSubscriptionRow;
        await this.emit('invoice.paid', this.invoice(renewed));
        await this.emit('customer.subscription.updated', this.stripeShape(renewed));
      }
    }
    return now;
  }

  verifyEvent(rawBody: Buffer, signature: string | undefined): VerifiedEvent {
    if (!signature) throw new WebhookSignatureError('Missing stripe-signature header');
    try {
      return eventRefs(Stripe.webhooks.constructEvent(rawBody, signature, this.secret));
    } catch (err) {
      throw new WebhookSignatureError((err as Error).message);
    }
  }

  /** Signs a body the way Stripe does, with this provider's secret (tests use it to forge events too). */
  sign(payload: string, timestamp?: number): string {
    return Stripe.webhooks.generateTestHeaderString({ payload, secret: this.secret, timestamp });
  }

  private async changed(id: string): Promise<ProviderSubscription> {
    const row = await this.row(id);
    if (!row) throw new AppError(404, 'NOT_FOUND', 'No such subscription.');
    await this.emit('customer.subscription.updated', this.stripeShape(row));
    return toProviderSubscription(row);
  }

  private async emit(type: string, object: Record<string, unknown>): Promise<void> {
    if (!this.sink) return;
    const payload = JSON.stringify({
      id: newId('evt'),
      object: 'event',
      type,
      created: await this.now(),
      data: { object },
    });
    await this.sink(Buffer.from(payload), this.sign(payload));
  }

  private row(id: string): Promise<SimSubscriptionRow | null> {
    return this.subscriptions.row(id);
  }

  private stripeShape(r: SimSubscriptionRow): Record<string, unknown> {
    return {
      object: 'subscription',
      id: r.id,
      customer: r.customer_id,
      status: r.status,
      cancel_at_period_end: r.cancel_at_period_end,
      cancel_at: r.cancel_at_period_end ? secs(r.current_period_end) : null,
      metadata: { userId: r.user_id, plan: r.plan },
      items: {
        data: [
          {
            price: { id: `price_sim_${r.plan}` },
            current_period_start: secs(r.current_period_start),
            current_period_end: secs(r.current_period_end),
          },
        ],
      },
    };
  }

  private invoice(r: SimSubscriptionRow): Record<string, unknown> {
    return {
      object: 'invoice',
      id: newId('in'),
      customer: r.customer_id,
      parent: { subscription_details: { subscription: r.id, metadata: { userId: r.user_id } } },
      amount_due: (planOf(r.plan).priceGbp ?? 0) * 100,
      currency: 'gbp',
    };
  }
}
