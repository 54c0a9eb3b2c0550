import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Repository } from 'typeorm';
import { WebhookDeliveryEntity, WebhookEndpointEntity } from '@csv-mapper/db';
import {
  JobProducer,
  newWebhookSecret,
  QUEUES,
  WEBHOOK_EVENTS,
  type WebhookDeliveryPayload,
} from '@csv-mapper/queue';
import type {
  CreatedWebhookEndpointView,
  CreateWebhookRequest,
  MessageIdView,
  RotatedSecretView,
  UpdateWebhookRequest,
  WebhookDeliveryView,
  WebhookEndpointView,
} from '@csv-mapper/contracts';
import { AppError } from '../common/app-error';
import { isUuid } from '../common/ids';
import { requirePlanFeature } from '../common/plan-feature';

const MAX_ENDPOINTS = 10;
/** How long the old secret keeps signing after a rotation. */
const ROTATION_OVERLAP_MS = 24 * 3600_000;
/** Attempts the delivery log shows. */
const LOG_LIMIT = 100;

const notFound = () => new AppError(404, 'NOT_FOUND', 'Webhook endpoint not found.');
const deliveryNotFound = () =>
  new AppError(404, 'NOT_FOUND', 'Delivery not found. Attempts are kept 30 days.');

/** Per-user webhook endpoints (plans with webhookSupport). Secrets are shown once, at creation. */
@Injectable()
export class WebhooksService {
  constructor(
    @InjectRepository(WebhookEndpointEntity) private readonly endpoints: Repository<WebhookEndpointEntity>,
    @InjectRepository(WebhookDeliveryEntity) private readonly deliveries: Repository<WebhookDeliveryEntity>,
    private readonly producer: JobProducer,
  ) {}

  assertPlan(plan: string): void {
    requirePlanFeature(
      plan,
      'webhookSupport',
      'Webhooks are available on the Business and Enterprise plans. Upgrade to use them.',
    );
  }

  async list(teamId: string): Promise<WebhookEndpointView[]> {
    const rows = await this.endpoints.find({ where: { teamId }, order: { createdAt: 'ASC' } });
    return rows.map(view);
  }

  async create(
    teamId: string,
    input: CreateWebhookRequest,
    createdBy: string,
  ): Promise<CreatedWebhookEndpointView> {
    const count = await this.endpoints.count({ where: { teamId } });
    if (count >= MAX_ENDPOINTS)
      throw new AppError(
        409,
        'TOO_MANY_ENDPOINTS',
        `You can register up to ${MAX_ENDPOINTS} webhook endpoints.`,
      );
    const secret = newWebhookSecret();
    const saved = await this.endpoints.save(
      this.endpoints.create({
        teamId,
        userId: createdBy,
        url: input.url,
        events: input.events ?? [...WEBHOOK_EVENTS],
        enabled: true,
        secret,
      }),
    );
    return { ...view(saved), secret };
  }

  async update(teamId: string, id: string, patch: UpdateWebhookRequest): Promise<WebhookEndpointView> {
    const ep = await this.owned(teamId, id);
    if (patch.url !== undefined) ep.url = patch.url;
    if (patch.events !== undefined) ep.events = patch.events;
    if (patch.enabled !== undefined) {
      ep.enabled = patch.enabled;
      if (patch.enabled) ep.disabledReason = null;
    }
    return view(await this.endpoints.save(ep));
  }

  async remove(teamId: string, id: string): Promise<void> {
    await this.owned(teamId, id);
    await this.endpoints.delete({ id, teamId });
  }

  async sendTest(teamId: string, id: string): Promise<MessageIdView> {
    await this.owned(teamId, id);
    const messageId = `msg_${randomUUID().replace(/-/g, '')}`;
    await this.deliverOnce({
      endpointId: id,
      event: 'test',
      messageId,
      timestamp: Math.floor(Date.now() / 1000),
      body: {
        type: 'test',
        timestamp: new Date().toISOString(),
        data: { message: 'Test event from CSV Mapper' },
      },
    });
    return { messageId };
  }

  /**
   * A new signing secret, shown once. The old one keeps signing beside it for 24 hours, so receivers can
   * switch without missing a delivery (Standard Webhooks allows several `v1,` signatures).
   */
  async rotateSecret(teamId: string, id: string): Promise<RotatedSecretView> {
    await this.owned(teamId, id);
    const secret = newWebhookSecret();
    const previousSecretExpiresAt = new Date(Date.now() + ROTATION_OVERLAP_MS);
    await this.endpoints
      .createQueryBuilder()
      .update()
      .set({ secret, previousSecret: () => 'secret', previousSecretExpiresAt })
      .where('id = :id AND team_id = :teamId', { id, teamId })
      .execute();
    return { secret, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() };
  }

  /** The last 100 attempts, newest first, with the first 1 KB of each answer. */
  async deliveriesOf(teamId: string, id: string): Promise<WebhookDeliveryView[]> {
    await this.owned(teamId, id);
    const rows = await this.deliveries.find({
      where: { endpointId: id },
      order: { createdAt: 'DESC', attempt: 'DESC' },
      take: LOG_LIMIT,
    });
    return rows.map((d) => ({
      id: d.id,
      event: d.event,
      messageId: d.messageId,
      jobId: d.jobId,
      attempt: d.attempt,
      statusCode: d.statusCode,
      durationMs: d.durationMs,
      error: d.error,
      responseSnippet: d.responseSnippet,
      outcome: d.outcome,
      nextRetryAt: d.nextRetryAt?.toISOString() ?? null,
      createdAt: d.createdAt.toISOString(),
    }));
  }

  /** The attempt's event once more: same webhook-id and payload, a fresh signature; one attempt. */
  async resend(teamId: string, id: string, deliveryId: string): Promise<MessageIdView> {
    const endpoint = await this.owned(teamId, id);
    if (!endpoint.enabled)
      throw new AppError(
        409,
        'ENDPOINT_DISABLED',
        'This endpoint is disabled. Enable it, then resend the delivery.',
      );
    if (!isUuid(deliveryId)) throw deliveryNotFound();
    const d = await this.deliveries.findOne({ where: { id: deliveryId, endpointId: id } });
    if (!d?.payload) throw deliveryNotFound();
    const [{ attempts }] = (await this.deliveries.query(
      'SELECT max(attempt)::int AS attempts FROM webhook_deliveries WHERE endpoint_id = $1 AND message_id = $2',
      [id, d.messageId],
    )) as Array<{ attempts: number }>;
    await this.deliverOnce({
      endpointId: id,
      event: d.event as WebhookDeliveryPayload['event'],
      messageId: d.messageId,
      timestamp: Math.floor(Date.now() / 1000),
      body: d.payload as WebhookDeliveryPayload['body'],
      attemptOffset: attempts,
    });
    return { messageId: d.messageId };
  }

  /** One signed attempt, run by the worker's webhooks queue; its outcome lands in the delivery log. */
  private async deliverOnce(payload: WebhookDeliveryPayload): Promise<void> {
    await this.producer.enqueue(QUEUES.webhooks, 'deliver', payload, { attempts: 1 });
  }

  private async owned(teamId: string, id: string): Promise<WebhookEndpointEntity> {
    if (!isUuid(id)) throw notFound();
    const ep = await this.endpoints.findOne({ where: { id, teamId } });
    if (!ep) throw notFound();
    return ep;
  }
}

function view(e: WebhookEndpointEntity): WebhookEndpointView {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    previousSecretExpiresAt:
      e.previousSecretExpiresAt && e.previousSecretExpiresAt.getTime() > Date.now()
        ? e.previousSecretExpiresAt.toISOString()
        : null,
    createdAt: e.createdAt.toISOString(),
  };
}
