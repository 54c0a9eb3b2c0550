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
