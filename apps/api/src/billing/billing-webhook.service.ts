import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../common/app-error';
import { BILLING_PROVIDER, WebhookSignatureError, type BillingProvider } from './billing-provider';
import { PlanStateService } from './plan-state.service';
import { SimulatedBillingProvider } from './simulated-billing.provider';

/** The event types we act on (subscribe to exactly these in the Stripe dashboard). */
export const HANDLED_EVENTS = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
]);

/**
 * POST /api/billing/webhook. The signature is checked on the raw body; the event id is stored under a
 * unique key first, so a replay or a concurrent duplicate does nothing; then the subscription is read
 * back from the provider and applied, so the final state is the provider's whatever order events arrive
 * in. A failure removes the id again and answers 5xx, and the provider retries.
 */
@Injectable()
export class BillingWebhookService implements OnModuleInit {
  private readonly logger = new Logger('BillingWebhook');

  constructor(
    @Inject(BILLING_PROVIDER) private readonly provider: BillingProvider,
    private readonly db: DataSource,
    private readonly planState: PlanStateService,
  ) {}

  onModuleInit(): void {
    if (this.provider instanceof SimulatedBillingProvider) {
      this.provider.onEvent(async (raw, signature) => {
        await this.handle(raw, signature);
      });
    }
  }

  async handle(
    raw: Buffer | undefined,
    signature: string | undefined,
  ): Promise<{ received: true; duplicate?: true }> {
    if (!raw || raw.length === 0) throw new AppError(400, 'INVALID_WEBHOOK', 'The webhook body is empty.');
    let event;
    try {
      event = this.provider.verifyEvent(raw, signature);
    } catch (err) {
      if (err instanceof WebhookSignatureError) {
        throw new AppError(400, 'INVALID_SIGNATURE', 'Webhook signature verification failed.');
      }
      throw err;
    }
    const inserted: unknown[] = await this.db.query(
      `INSERT INTO billing_events (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [event.id, event.type],
    );
    if (inserted.length === 0) return { received: true, duplicate: true };
    try {
      if (HANDLED_EVENTS.has(event.type) && event.subscriptionId) {
        const sub = await this.provider.retrieveSubscription(event.subscriptionId);
        if (sub) await this.planState.apply(sub);
      }
    } catch (err) {
      await this.db.query(`DELETE FROM billing_events WHERE id = $1`, [event.id]).catch(() => undefined);
      this.logger.error(
        { err, event: event.id, type: event.type },
        'billing event failed; the provider will retry',
      );
      throw new AppError(
        503,
        'SERVICE_UNAVAILABLE',
        'The event could not be processed now; it will be retried.',
      );
    }
    return { received: true };
  }
}
