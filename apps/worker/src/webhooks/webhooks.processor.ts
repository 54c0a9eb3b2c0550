import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Job, UnrecoverableError } from 'bullmq';
import { Repository } from 'typeorm';
import { WebhookDeliveryEntity, WebhookEndpointEntity } from '@csv-mapper/db';
import { QUEUES, webhookHeaders, type WebhookDeliveryPayload } from '@csv-mapper/queue';
import { WorkerConfig } from '../config/worker.config';
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
    throw new Error(res.error ?? `receiver answered HTTP ${res.statusCode}`);
  }
}

function subjectOf(p: WebhookDeliveryPayload): string | null {
  const data = p.body.data as Record<string, unknown> | undefined;
  return typeof data?.jobId === 'string' ? data.jobId : null;
}
