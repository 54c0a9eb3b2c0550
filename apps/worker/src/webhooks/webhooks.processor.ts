import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Job, UnrecoverableError } from 'bullmq';
import { DataSource, Repository } from 'typeorm';
import { WebhookDeliveryEntity, WebhookEndpointEntity } from '@csv-mapper/db';
import { QUEUES, webhookHeaders, type WebhookDeliveryPayload } from '@csv-mapper/queue';
import { WorkerConfig } from '../config/worker.config';
import { WorkerMailer } from '../mail/worker-mailer';
import { setWebhookRetryScale, webhookBackoff } from './webhook-retry';
import { sendWebhook } from './webhook-sender';

/**
 * Signed deliveries (Standard Webhooks). Only 2xx succeeds; 410 disables the endpoint; anything else
 * is retried on the schedule in webhook-retry.ts. Every attempt is logged without the response body.
 */
@Processor(QUEUES.webhooks, {
  settings: { backoffStrategy: (attemptsMade: number) => webhookBackoff(attemptsMade) },
})
export class WebhooksProcessor extends WorkerHost {
  private readonly logger = new Logger(WebhooksProcessor.name);

  constructor(
    @InjectRepository(WebhookEndpointEntity) private readonly endpoints: Repository<WebhookEndpointEntity>,
    @InjectRepository(WebhookDeliveryEntity) private readonly deliveries: Repository<WebhookDeliveryEntity>,
    private readonly config: WorkerConfig,
    private readonly ds: DataSource,
    private readonly mailer: WorkerMailer,
  ) {
    super();
    setWebhookRetryScale(config.webhookRetryScale);
  }

  async process(job: Job<WebhookDeliveryPayload>): Promise<{ statusCode: number }> {
    const p = job.data;
    const endpoint = await this.endpoints
      .createQueryBuilder('e')
      .addSelect('e.secret')
      .where('e.id = :id', { id: p.endpointId })
      .getOne();
    if (!endpoint) throw new UnrecoverableError('endpoint deleted');
    if (!endpoint.enabled) throw new UnrecoverableError('endpoint disabled');

    const body = JSON.stringify(p.body);
    const headers = webhookHeaders(endpoint.secret, p.messageId, p.timestamp, body);
    const attempt = job.attemptsMade + 1;
    const res = await sendWebhook(endpoint.url, headers, body, {
      timeoutMs: this.config.webhookTimeoutMs,
      allowList: this.config.webhookAllowedIps,
    });
    const ok = res.statusCode !== null && res.statusCode >= 200 && res.statusCode < 300;
    const finalAttempt = attempt >= (job.opts.attempts ?? 1);
    await this.deliveries.insert({
      endpointId: endpoint.id,
      event: p.event,
      messageId: p.messageId,
      jobId: subjectOf(p),
      attempt,
      statusCode: res.statusCode,
      durationMs: res.durationMs,
      error: ok ? null : (res.error ?? `HTTP ${res.statusCode}`),
      nextRetryAt:
        ok || finalAttempt || res.statusCode === 410 ? null : new Date(Date.now() + webhookBackoff(attempt)),
    });
    if (ok) return { statusCode: res.statusCode as number };
    if (res.statusCode === 410) {
      await this.endpoints.update(endpoint.id, {
        enabled: false,
        disabledReason: 'The receiver answered 410 Gone',
      });
      throw new UnrecoverableError('receiver answered 410 Gone: endpoint disabled');
    }
    this.logger.warn(
      `webhook ${p.messageId} attempt ${attempt} to endpoint ${endpoint.id} failed: ${res.error ?? res.statusCode}`,
    );
    if (await this.disableIfFailingTooLong(endpoint.id))
      throw new UnrecoverableError('endpoint disabled after days of failed deliveries');
    throw new Error(res.error ?? `receiver answered HTTP ${res.statusCode}`);
  }
  /**
   * Every delivery since the endpoint's last success has failed, and the first of those is older than
   * WEBHOOK_DISABLE_AFTER_DAYS (5): disable it and tell the owner, once (the conditional UPDATE
   * decides which worker sends the mail).
   */
  private async disableIfFailingTooLong(endpointId: string): Promise<boolean> {
    const [row] = (await this.ds.query(
      `SELECT min(created_at) AS first_failure FROM webhook_deliveries
        WHERE endpoint_id = $1 AND error IS NOT NULL
          AND created_at > COALESCE(
            (SELECT max(created_at) FROM webhook_deliveries WHERE endpoint_id = $1 AND error IS NULL),
            '-infinity')`,
      [endpointId],
    )) as Array<{ first_failure: Date | null }>;
    const since = row?.first_failure ? new Date(row.first_failure) : null;
    if (!since || Date.now() - since.getTime() < this.config.webhookDisableAfterMs) return false;
    const days = Math.round(this.config.webhookDisableAfterMs / 86_400_000);
    const [updated] = (await this.ds.query(
      `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $2, updated_at = now()
        WHERE id = $1 AND enabled RETURNING url, (SELECT email FROM users WHERE users.id = user_id) AS email`,
      [endpointId, `Every delivery failed for ${days} days`],
    )) as [Array<{ url: string; email: string | null }>, number];
    const owner = updated?.[0];
    if (!owner) return true; // another worker disabled it (and mailed) first
    this.logger.warn(`webhook endpoint ${endpointId} disabled: failing since ${since.toISOString()}`);
    if (owner.email) {
      await this.mailer
        .send({
          to: owner.email,
          subject: 'Your CSV Mapper webhook endpoint was disabled',
          text:
            `Every delivery to your webhook endpoint ${owner.url} has failed since ${since.toUTCString()}, ` +
            `so we disabled it and stopped sending events.\n\n` +
            `Fix the receiver, then enable the endpoint again (and send a test event) on your profile page:\n` +
            `${this.config.appUrl}/profile\n`,
        })
        .catch((err: Error) =>
          this.logger.error(`could not mail the owner of ${endpointId}: ${err.message}`),
        );
    }
    return true;
  }
}

function subjectOf(p: WebhookDeliveryPayload): string | null {
  const data = p.body.data as Record<string, unknown> | undefined;
  return typeof data?.jobId === 'string' ? data.jobId : null;
}
