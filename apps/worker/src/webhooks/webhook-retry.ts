// Retry schedule after a failed delivery (Svix-like, ~32 h in total), each with ±20 % jitter.
export const WEBHOOK_RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
];
export const WEBHOOK_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;
/** The longest wait a receiver's Retry-After can ask for. */
export const RETRY_AFTER_CAP_MS = 3600_000;

let scale = 1;
/** Tests shrink the schedule (WEBHOOK_RETRY_SCALE); production keeps 1. */
export function setWebhookRetryScale(value: number): void {
  scale = value;
}

export function webhookBackoff(attemptsMade: number, random: () => number = Math.random): number {
  const base =
    WEBHOOK_RETRY_DELAYS_MS[Math.min(attemptsMade, WEBHOOK_RETRY_DELAYS_MS.length) - 1] ??
    WEBHOOK_RETRY_DELAYS_MS[0];
  return Math.round(base * scale * (0.8 + random() * 0.4));
}

/**
 * The wait before the next attempt: the schedule's, or longer when a 429/503 receiver asked for more
 * with Retry-After (capped at an hour; never scaled: it is the receiver's own word).
 */
export function nextDelayMs(
  attemptsMade: number,
  statusCode: number | null,
  retryAfterSeconds: number | null,
) {
  const scheduled = webhookBackoff(attemptsMade);
  if ((statusCode === 429 || statusCode === 503) && retryAfterSeconds !== null)
    return Math.max(scheduled, Math.min(retryAfterSeconds * 1000, RETRY_AFTER_CAP_MS));
  return scheduled;
}

/** A failed attempt that will be retried after `delayMs` (read by the queue's backoff strategy). */
export class DeliveryRetryError extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
    this.name = 'DeliveryRetryError';
  }
}

/** BullMQ custom backoff: the delay the attempt decided (and logged as next_retry_at). */
export function deliveryBackoff(attemptsMade: number, _type?: string, err?: Error): number {
  return err instanceof DeliveryRetryError ? err.delayMs : webhookBackoff(attemptsMade);
}
