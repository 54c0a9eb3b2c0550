import { createHash, createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks signing (spec v1): signature = base64(HMAC-SHA256(secret, `${id}.${timestamp}.${body}`)),
// sent as `webhook-signature: v1,<sig>`; the secret is 'whsec_' + base64 of ≥ 24 random bytes.

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

function keyOf(secret: string): Buffer {
  const raw = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  return Buffer.from(raw, 'base64');
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const sig = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${sig}`;
}

/** Headers of one delivery; during a secret rotation every secret signs (space-separated `v1,` entries). */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'CSV-Mapper-Webhooks/1.0',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signWebhook(s, id, timestamp, body)).join(' '),
  };
}

/** The message id of one event to one endpoint: derived, so a job finishing twice sends one message. */
export function webhookMessageId(endpointId: string, event: string, subjectId: string): string {
  return `msg_${createHash('sha256').update(`${endpointId}:${event}:${subjectId}`).digest('hex').slice(0, 32)}`;
}
