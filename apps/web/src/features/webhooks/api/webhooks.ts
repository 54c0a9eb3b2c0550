import useSWR, { useSWRConfig } from 'swr';
import useSWRMutation from 'swr/mutation';
import { apiJson, apiRequest, getQueryFn } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';

// The webhooks api (issue 15). The shapes stay here until a later issue moves them into the contract lib.

export const WEBHOOK_EVENTS = ['job.completed', 'job.failed', 'job.cancelled'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** A webhook endpoint as GET /api/webhooks lists it (never with its secret). */
export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEvent[];
  enabled: boolean;
  disabledReason: string | null;
  /** Set for 24 h after a rotation: until then deliveries carry the old signature too. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
}

/** POST /api/webhooks answers the signing secret once. */
export interface CreatedWebhookEndpoint extends WebhookEndpoint {
  secret: string;
}

/** POST /api/webhooks/:id/rotate-secret answers the new secret once. */
export interface RotatedSecret {
  secret: string;
  previousSecretExpiresAt: string;
}

export type DeliveryOutcome = 'succeeded' | 'retrying' | 'failed';

/** One delivery attempt. */
export interface WebhookDelivery {
  id: string;
  event: string;
  /** The webhook-id header: the same for every attempt (and resend) of one event. */
  messageId: string;
  jobId: string | null;
  attempt: number;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  /** The first 1 KB of the receiver's answer. */
  responseSnippet: string | null;
  outcome: DeliveryOutcome;
  nextRetryAt: string | null;
  createdAt: string;
}

export type WebhookPatch = Partial<Pick<WebhookEndpoint, 'url' | 'events' | 'enabled'>>;

const path = (id: string) => `/api/webhooks/${encodeURIComponent(id)}`;
const getWebhooks = getQueryFn<WebhookEndpoint[]>({ on401: 'throw' });
const getDeliveries = getQueryFn<WebhookDelivery[]>({ on401: 'throw' });

/** The SWR key of one endpoint's delivery log (the default fetcher joins the parts with '/'). */
export const deliveriesKey = (id: string) => ['/api/webhooks', id, 'deliveries'] as const;

/** GET /api/webhooks (plans with webhook support only). */
export function useWebhooks({ enabled = true }: { enabled?: boolean } = {}) {
  return useSWR<WebhookEndpoint[] | null>(enabled ? swrKeys.webhooks : null, getWebhooks, {
    revalidateOnMount: true,
  });
}

/**
 * GET /api/webhooks/:id/deliveries: the last 100 attempts, newest first. `refreshInterval` decides from the
 * latest log how soon to ask again (0 = not until something else revalidates it).
 */
export function useWebhookDeliveries(
  id: string | null,
  refreshInterval?: (latest: WebhookDelivery[] | null | undefined) => number,
) {
  return useSWR<WebhookDelivery[] | null>(id ? deliveriesKey(id) : null, getDeliveries, {
    revalidateOnMount: true,
    refreshInterval,
  });
}

export function useCreateWebhook() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    'POST /api/webhooks',
    (_k: string, { arg }: { arg: { url: string; events: WebhookEvent[] } }) =>
      apiJson<CreatedWebhookEndpoint>('POST', '/api/webhooks', arg),
    { onSuccess: () => void mutate(swrKeys.webhooks) },
  );
}

/** PATCH /api/webhooks/:id: url, event filter (at least one event) or enabled. */
export function useUpdateWebhook() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    'PATCH /api/webhooks',
    (_k: string, { arg }: { arg: { id: string; patch: WebhookPatch } }) =>
      apiJson<WebhookEndpoint>('PATCH', path(arg.id), arg.patch),
    {
      // the answer goes into the list at once (no flicker back to the old filter), then the list reloads
      onSuccess: (updated) =>
        void mutate<WebhookEndpoint[] | null>(swrKeys.webhooks, (list) =>
          list?.map((e) => (e.id === updated.id ? { ...e, ...updated } : e)),
        ),
    },
  );
}

export function useDeleteWebhook() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    'DELETE /api/webhooks',
    async (_k: string, { arg }: { arg: string }) => {
      await apiRequest('DELETE', path(arg));
    },
    { onSuccess: () => void mutate(swrKeys.webhooks) },
  );
}

/** POST /api/webhooks/:id/test → 202: one signed `test` event, one attempt. */
export function sendTestEvent(id: string): Promise<{ messageId: string }> {
  return apiJson<{ messageId: string }>('POST', `${path(id)}/test`);
}

/** POST /api/webhooks/:id/deliveries/:deliveryId/resend → 202: the same event (webhook-id) again, once. */
export function resendDelivery(id: string, deliveryId: string): Promise<{ messageId: string }> {
  return apiJson<{ messageId: string }>(
    'POST',
    `${path(id)}/deliveries/${encodeURIComponent(deliveryId)}/resend`,
  );
}

/** POST /api/webhooks/:id/rotate-secret: a new secret, shown once; the old one also signs for 24 h. */
export function useRotateWebhookSecret() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    'POST /api/webhooks/rotate-secret',
    (_k: string, { arg }: { arg: string }) => apiJson<RotatedSecret>('POST', `${path(arg)}/rotate-secret`),
    { onSuccess: () => void mutate(swrKeys.webhooks) },
  );
}
