import useSWR, { useSWRConfig } from 'swr';
import useSWRMutation from 'swr/mutation';
import { apiJson, apiRequest, getQueryFn } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';

export const WEBHOOK_EVENTS = ['job.completed', 'job.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** A webhook endpoint as GET /api/webhooks lists it (never with its secret). */
export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEvent[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
}

/** POST /api/webhooks answers the signing secret once. */
export interface CreatedWebhookEndpoint extends WebhookEndpoint {
  secret: string;
}

export interface WebhookDelivery {
  id: string;
  event: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  createdAt: string;
}

const getWebhooks = getQueryFn<WebhookEndpoint[]>({ on401: 'throw' });
const getDeliveries = getQueryFn<WebhookDelivery[]>({ on401: 'throw' });

/** GET /api/webhooks (plans with webhook support only). */
export function useWebhooks({ enabled = true }: { enabled?: boolean } = {}) {
  return useSWR<WebhookEndpoint[] | null>(enabled ? swrKeys.webhooks : null, getWebhooks, {
    revalidateOnMount: true,
  });
}

/** GET /api/webhooks/:id/deliveries: the last 50 attempts (status and timing, never response bodies). */
export function useWebhookDeliveries(id: string | null) {
  return useSWR<WebhookDelivery[] | null>(id ? ['/api/webhooks', id, 'deliveries'] : null, getDeliveries, {
    revalidateOnMount: true,
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

export function useUpdateWebhook() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    'PATCH /api/webhooks',
    (_k: string, { arg }: { arg: { id: string; enabled: boolean } }) =>
      apiJson<WebhookEndpoint>('PATCH', `/api/webhooks/${encodeURIComponent(arg.id)}`, {
        enabled: arg.enabled,
      }),
    { onSuccess: () => void mutate(swrKeys.webhooks) },
  );
}

export function useDeleteWebhook() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    'DELETE /api/webhooks',
    async (_k: string, { arg }: { arg: string }) => {
      await apiRequest('DELETE', `/api/webhooks/${encodeURIComponent(arg)}`);
    },
    { onSuccess: () => void mutate(swrKeys.webhooks) },
  );
}

/** POST /api/webhooks/:id/test: queues a signed test event to the endpoint. */
export function sendTestEvent(id: string): Promise<{ messageId: string }> {
  return apiJson<{ messageId: string }>('POST', `/api/webhooks/${encodeURIComponent(id)}/test`);
}
