import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Repository } from 'typeorm';
import { WebhookDeliveryEntity, WebhookEndpointEntity } from '@csv-mapper/db';
import { limitsOf } from '@csv-mapper/domain';
import { JobProducer, newWebhookSecret, QUEUES } from '@csv-mapper/queue';
import { AppError } from '../common/app-error';

export const WEBHOOK_EVENTS = ['job.completed', 'job.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
const MAX_ENDPOINTS = 10;

export interface EndpointView {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: Date;
}

const notFound = () => new AppError(404, 'NOT_FOUND', 'Webhook endpoint not found.');

/** Per-user webhook endpoints (plans with webhookSupport). Secrets are shown once, at creation. */
@Injectable()
export class WebhooksService {
  constructor(
    @InjectRepository(WebhookEndpointEntity) private readonly endpoints: Repository<WebhookEndpointEntity>,
    @InjectRepository(WebhookDeliveryEntity) private readonly deliveries: Repository<WebhookDeliveryEntity>,
    private readonly producer: JobProducer,
  ) {}

  assertPlan(plan: string): void {
    if (!limitsOf(plan).webhookSupport) {
      throw new AppError(
        403,
        'PLAN_FEATURE_UNAVAILABLE',
        'Webhooks are available on the Business and Enterprise plans. Upgrade to use them.',
      );
    }
  }

  async list(userId: string): Promise<EndpointView[]> {
    const rows = await this.endpoints.find({ where: { userId }, order: { createdAt: 'ASC' } });
    return rows.map(view);
  }

  async create(
    userId: string,
    input: { url: string; events?: string[] },
  ): Promise<EndpointView & { secret: string }> {
    const count = await this.endpoints.count({ where: { userId } });
    if (count >= MAX_ENDPOINTS)
      throw new AppError(
        409,
        'TOO_MANY_ENDPOINTS',
        `You can register up to ${MAX_ENDPOINTS} webhook endpoints.`,
      );
    const secret = newWebhookSecret();
    const saved = await this.endpoints.save(
      this.endpoints.create({
        userId,
        url: input.url,
        events: input.events ?? [...WEBHOOK_EVENTS],
        enabled: true,
        secret,
      }),
    );
    return { ...view(saved), secret };
  }

  async update(
    userId: string,
    id: string,
    patch: { url?: string; events?: string[]; enabled?: boolean },
  ): Promise<EndpointView> {
    const ep = await this.owned(userId, id);
    if (patch.url !== undefined) ep.url = patch.url;
    if (patch.events !== undefined) ep.events = patch.events;
    if (patch.enabled !== undefined) {
      ep.enabled = patch.enabled;
      if (patch.enabled) ep.disabledReason = null;
    }
    return view(await this.endpoints.save(ep));
  }

  async remove(userId: string, id: string): Promise<void> {
    await this.owned(userId, id);
    await this.endpoints.delete({ id, userId });
  }

  async sendTest(userId: string, id: string): Promise<{ messageId: string }> {
    await this.owned(userId, id);
    const messageId = `msg_${randomUUID().replace(/-/g, '')}`;
    const timestamp = Math.floor(Date.now() / 1000);
    await this.producer.enqueue(
      QUEUES.webhooks,
      'deliver',
      {
        endpointId: id,
        event: 'test',
        messageId,
        timestamp,
        body: {
          type: 'test',
          timestamp: new Date().toISOString(),
          data: { message: 'Test event from CSV Mapper' },
        },
      },
      { attempts: 1 },
    );
    return { messageId };
  }

  async deliveriesOf(userId: string, id: string) {
    await this.owned(userId, id);
    const rows = await this.deliveries.find({
      where: { endpointId: id },
      order: { createdAt: 'DESC' },
      take: 50,
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
      nextRetryAt: d.nextRetryAt,
      createdAt: d.createdAt,
    }));
  }

  private async owned(userId: string, id: string): Promise<WebhookEndpointEntity> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound();
    const ep = await this.endpoints.findOne({ where: { id, userId } });
    if (!ep) throw notFound();
    return ep;
  }
}

function view(e: WebhookEndpointEntity): EndpointView {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    createdAt: e.createdAt,
  };
}
