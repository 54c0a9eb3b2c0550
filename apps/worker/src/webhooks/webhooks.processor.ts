import { InjectQueue, Processor, WorkerHost, OnWorkerEvent } from '@nestjs/bullmq';
import { StalledJobsService } from '../metrics/stalled-jobs.service';
import { Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DelayedError, Job, Queue, UnrecoverableError } from 'bullmq';
import { DataSource, Repository } from 'typeorm';
import { WebhookDeliveryEntity, WebhookEndpointEntity, type WebhookDeliveryOutcome } from '@csv-mapper/db';
import {
  QUEUES,
  webhookHeaders,
  type BatchEventData,
  type WebhookDeliveryPayload,
  type WebhookDispatchPayload,
} from '@csv-mapper/queue';
import { WorkerConfig } from '../config/worker.config';
import { WorkerMailer } from '../mail/worker-mailer';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { deliveryBackoff, DeliveryRetryError, nextDelayMs, setWebhookRetryScale } from './webhook-retry';
import { sendWebhook } from './webhook-sender';

/** How long a `job.completed` delivery waits for its job to be marked completed in the queue. */
const COMPLETION_WAIT_MS = 60_000;
const COMPLETION_POLL_MS = 50;

/**
 * Signed deliveries (Standard Webhooks). Only 2xx succeeds; 410 disables the endpoint; anything else
 * is retried on the schedule in webhook-retry.ts (longer when a 429/503 asks with Retry-After). Every
 * attempt is logged with the first 1 KB of the answer. `dispatch` jobs fan an event raised by the api
 * (a queued job cancelled) out to the endpoints, as the csv processor does for its own events.
 */
@Processor(QUEUES.webhooks, { settings: { backoffStrategy: deliveryBackoff } })
export class WebhooksProcessor extends WorkerHost {
  private readonly logger = new Logger(WebhooksProcessor.name);

  constructor(
    private readonly stalled: StalledJobsService,
    @InjectRepository(WebhookEndpointEntity) private readonly endpoints: Repository<WebhookEndpointEntity>,
    @InjectRepository(WebhookDeliveryEntity) private readonly deliveries: Repository<WebhookDeliveryEntity>,
    @InjectQueue(QUEUES.csvJobs) private readonly csvJobs: Queue,
    private readonly dispatcher: WebhookDispatcher,
    private readonly config: WorkerConfig,
    private readonly ds: DataSource,
    private readonly mailer: WorkerMailer,
  ) {
    super();
    setWebhookRetryScale(config.webhookRetryScale);
  }

  /** A job of this queue whose lock lapsed: counted for operators (queue_stalled_jobs_total). */
  @OnWorkerEvent('stalled')
  onStalled(jobId: string): void {
    this.stalled.seen(this.worker.name, jobId);
  }

  async process(job: Job, token?: string): Promise<{ statusCode: number } | { endpoints: number }> {
    if (job.name === 'dispatch') {
      const p = job.data as WebhookDispatchPayload;
      return { endpoints: await this.dispatcher.dispatch(p.userId, p.event, p.subjectId, p.data) };
    }
    if (job.name !== 'deliver') throw new UnrecoverableError(`No handler for webhooks job "${job.name}"`);
    const p = job.data as WebhookDeliveryPayload;
    await this.awaitJobCompleted(job, p, token);

    const endpoint = await this.endpoints
      .createQueryBuilder('e')
      .addSelect(['e.secret', 'e.previousSecret'])
      .where('e.id = :id', { id: p.endpointId })
      .getOne();
    if (!endpoint) throw new UnrecoverableError('endpoint deleted');
    if (!endpoint.enabled) throw new UnrecoverableError('endpoint disabled');

    const body = JSON.stringify(p.body);
    const secrets = [endpoint.secret];
    if (endpoint.previousSecret && (endpoint.previousSecretExpiresAt?.getTime() ?? 0) > Date.now())
      secrets.push(endpoint.previousSecret);
    // Every attempt signs afresh: receivers refuse timestamps more than a few minutes old.
    const headers = webhookHeaders(secrets, p.messageId, Math.floor(Date.now() / 1000), body);
    const attempt = job.attemptsMade + 1;
    const res = await sendWebhook(endpoint.url, headers, body, {
      timeoutMs: this.config.webhookTimeoutMs,
      allowList: this.config.webhookAllowedIps,
    });
    const ok = res.statusCode !== null && res.statusCode >= 200 && res.statusCode < 300;
    const finalAttempt = attempt >= (job.opts.attempts ?? 1) || res.statusCode === 410;
    const delayMs = ok || finalAttempt ? null : nextDelayMs(attempt, res.statusCode, res.retryAfterSeconds);
    const outcome: WebhookDeliveryOutcome = ok ? 'succeeded' : delayMs === null ? 'failed' : 'retrying';
    await this.deliveries.insert({
      endpointId: endpoint.id,
      event: p.event,
      messageId: p.messageId,
      jobId: subjectOf(p),
      attempt: (p.attemptOffset ?? 0) + attempt,
      statusCode: res.statusCode,
      durationMs: res.durationMs,
      error: ok ? null : (res.error ?? `HTTP ${res.statusCode}`),
      payload: p.body,
      responseSnippet: res.responseSnippet,
      outcome,
      nextRetryAt: delayMs === null ? null : new Date(Date.now() + delayMs),
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
    const reason = res.error ?? `receiver answered HTTP ${res.statusCode}`;
    if (delayMs === null) throw new UnrecoverableError(reason);
    throw new DeliveryRetryError(reason, delayMs);
  }

  /**
   * The csv processor raises `job.completed` once the result and usage are committed, a moment before
   * BullMQ marks the job completed (and `batch.completed` right after its last file's). A receiver that
   * downloads at once must find them completed, so the first attempt waits for that (re-queued without
   * costing an attempt).
   */
  private async awaitJobCompleted(job: Job, p: WebhookDeliveryPayload, token?: string): Promise<void> {
    const awaited = completedJobsOf(p);
    if (awaited.length === 0 || job.attemptsMade > 0 || !token) return;
    if (Date.now() - p.timestamp * 1000 > COMPLETION_WAIT_MS) return;
    for (const subject of awaited) {
      const state = await this.csvJobs.getJobState(subject);
      if (state === 'completed' || state === 'unknown' || state === 'failed') continue;
      await job.moveToDelayed(Date.now() + COMPLETION_POLL_MS, token);
      throw new DelayedError();
    }
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

/** The job (or batch) an event is about, for the delivery log. */
function subjectOf(p: WebhookDeliveryPayload): string | null {
  const data = p.body.data as { jobId?: unknown; batchId?: unknown } | undefined;
  if (p.event === 'batch.completed') return typeof data?.batchId === 'string' ? data.batchId : null;
  return typeof data?.jobId === 'string' ? data.jobId : null;
}

/** The completed jobs a receiver of this event may download at once. */
function completedJobsOf(p: WebhookDeliveryPayload): string[] {
  if (p.event === 'job.completed') {
    const subject = subjectOf(p);
    return subject ? [subject] : [];
  }
  if (p.event === 'batch.completed') {
    const data = p.body.data as BatchEventData;
    return data.jobs.filter((j) => j.state === 'completed').map((j) => j.jobId);
  }
  return [];
}
