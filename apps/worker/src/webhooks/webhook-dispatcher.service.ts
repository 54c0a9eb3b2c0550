import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { Repository } from 'typeorm';
import { WebhookEndpointEntity } from '@csv-mapper/db';
import {
  JOB_RETENTION,
  jobIdFrom,
  QUEUES,
  webhookMessageId,
  type BatchEventData,
  type JobEventData,
  type WebhookDeliveryPayload,
  type WebhookEventType,
} from '@csv-mapper/queue';
import { WEBHOOK_ATTEMPTS } from './webhook-retry';

/** Fans an event out to the owner's enabled endpoints that subscribe to it (one delivery job each). */
@Injectable()
export class WebhookDispatcher {
  constructor(
    @InjectRepository(WebhookEndpointEntity) private readonly endpoints: Repository<WebhookEndpointEntity>,
    @InjectQueue(QUEUES.webhooks) private readonly queue: Queue<WebhookDeliveryPayload>,
  ) {}

  async dispatch(
    userId: string,
    event: WebhookEventType,
    subjectId: string,
    data: JobEventData | BatchEventData,
  ): Promise<number> {
    const targets = (await this.endpoints.find({ where: { userId, enabled: true } })).filter((e) =>
      e.events.includes(event),
    );
    const timestamp = Math.floor(Date.now() / 1000);
    for (const ep of targets) {
      // Deterministic per (endpoint, event, subject): a job finishing twice sends one message, with one id.
      const key = `${ep.id}:${event}:${subjectId}`;
      await this.queue.add(
        'deliver',
        {
          endpointId: ep.id,
          event,
          messageId: webhookMessageId(ep.id, event, subjectId),
          timestamp,
          body: { type: event, timestamp: new Date(timestamp * 1000).toISOString(), data },
        },
        {
          jobId: jobIdFrom(QUEUES.webhooks, key),
          attempts: WEBHOOK_ATTEMPTS,
          backoff: { type: 'custom' },
          ...JOB_RETENTION,
        },
      );
    }
    return targets.length;
  }
}
