import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobProducer, QUEUES } from '@csv-mapper/queue';
import { AppError } from '../common/app-error';
import {
  BILLING_PROVIDER,
  recordBillingEvent,
  WebhookSignatureError,
  type BillingProvider,
} from './billing-provider';
import { SimulatedBillingProvider } from './simulated-billing.provider';

/** A provider event is applied within minutes or left to the daily reconciliation (2 s … ~4 min apart). */
export const BILLING_EVENT_ATTEMPTS = 8;
/** How long a simulated provider call waits for the worker to apply its events. */
const SIMULATED_APPLY_WAIT_MS = 10_000;

/**
 * POST /api/billing/webhook. The signature is checked on the raw body; the verified event is stored under
 * its unique id (a replay or a concurrent duplicate is stored once) and queued for the worker, which reads
 * the subscription back from the provider and applies it with retries (libs/billing). The answer comes
 * before any processing; only a failure to store or queue answers 5xx, so the provider delivers again.
 */
@Injectable()
export class BillingWebhookService implements OnModuleInit {
  private readonly logger = new Logger('BillingWebhook');

  constructor(
    @Inject(BILLING_PROVIDER) private readonly provider: BillingProvider,
    private readonly db: DataSource,
    private readonly jobs: JobProducer,
  ) {}

  /**
   * The simulated provider (development and tests) delivers in process, and its calls — pay, decline, the
   * test webhooks — answer once their events are applied, as the app's pages expect of them. The events
   * still take Stripe's path (stored, queued, applied by the worker); only the wait is the simulator's.
   */
  onModuleInit(): void {
    if (this.provider instanceof SimulatedBillingProvider) {
      this.provider.onEvent(async (raw, signature) => {
        await this.handle(raw, signature);
        await this.awaitApplied((JSON.parse(raw.toString('utf8')) as { id: string }).id);
      });
    }
  }

  private async awaitApplied(eventId: string, timeoutMs = SIMULATED_APPLY_WAIT_MS): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      const [row] = (await this.db.query('SELECT processed_at FROM billing_events WHERE id = $1', [
        eventId,
      ])) as Array<{ processed_at: Date | null }>;
      if (!row || row.processed_at) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    this.logger.warn(
      `simulated billing event ${eventId} not applied within ${timeoutMs} ms (is the worker running?)`,
    );
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
    try {
      // The body parsed once the signature holds over it.
      const { inserted, pending } = await recordBillingEvent(
        this.db,
        event,
        JSON.parse(raw.toString('utf8')),
      );
      // A duplicate still waiting is queued again (its first delivery may have been stored but not queued);
      // the job id is derived from the event id, so a job already there is not added twice.
      if (pending) {
        await this.jobs.enqueue(
          QUEUES.billing,
          'apply-event',
          { eventId: event.id },
          { dedupeKey: event.id, attempts: BILLING_EVENT_ATTEMPTS },
        );
      }
      return inserted ? { received: true } : { received: true, duplicate: true };
    } catch (err) {
      this.logger.error(
        { err, event: event.id, type: event.type },
        'billing event could not be stored or queued; the provider will retry',
      );
      throw new AppError(
        503,
        'SERVICE_UNAVAILABLE',
        'The event could not be accepted now; it will be retried.',
      );
    }
  }
}
