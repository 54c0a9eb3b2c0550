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
