import type {
  CreateWebhookRequest,
  CreatedWebhookEndpointView,
  MessageIdView,
  RotatedSecretView,
  UpdateWebhookRequest,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookEventType,
} from '@csv-mapper/contracts';
import useSWR, { useSWRConfig } from 'swr';
import useSWRMutation from 'swr/mutation';
import { apiJson, apiRequest, getQueryFn } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';

// The webhooks api (issue 15); the shapes are the contract's.

/**
 * The events a user can subscribe to, in the order the filter shows them. A value the web app needs at run
 * time, so it is listed here; the type check below fails the build if the contract gains or loses one.
 */
export const WEBHOOK_EVENTS = [
  'job.completed',
  'job.failed',
  'job.cancelled',
  'batch.completed',
] as const satisfies readonly WebhookEventType[];
type MissingEvent = Exclude<WebhookEventType, (typeof WEBHOOK_EVENTS)[number]>;
const everyEventListed: [MissingEvent] extends [never] ? true : MissingEvent = true;
void everyEventListed;

const path = (id: string) => `/api/webhooks/${encodeURIComponent(id)}`;
const getWebhooks = getQueryFn<WebhookEndpointView[]>({ on401: 'throw' });
const getDeliveries = getQueryFn<WebhookDeliveryView[]>({ on401: 'throw' });

/** The SWR key of one endpoint's delivery log (the default fetcher joins the parts with '/'). */
export const deliveriesKey = (id: string) => ['/api/webhooks', id, 'deliveries'] as const;

/** GET /api/webhooks (plans with webhook support only). */
export function useWebhooks({ enabled = true }: { enabled?: boolean } = {}) {
  return useSWR<WebhookEndpointView[] | null>(enabled ? swrKeys.webhooks : null, getWebhooks, {
    revalidateOnMount: true,
  });
}

/**
 * GET /api/webhooks/:id/deliveries: the last 100 attempts, newest first. `refreshInterval` decides from the
 * latest log how soon to ask again (0 = not until something else revalidates it).
 */
export function useWebhookDeliveries(
  id: string | null,
  refreshInterval?: (latest: WebhookDeliveryView[] | null | undefined) => number,
) {
  return useSWR<WebhookDeliveryView[] | null>(id ? deliveriesKey(id) : null, getDeliveries, {
    revalidateOnMount: true,
    refreshInterval,
  });
}

export function useCreateWebhook() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    'POST /api/webhooks',
    (_k: string, { arg }: { arg: CreateWebhookRequest }) =>
      apiJson<CreatedWebhookEndpointView>('POST', '/api/webhooks', arg),
    { onSuccess: () => void mutate(swrKeys.webhooks) },
  );
}

/** PATCH /api/webhooks/:id: url, event filter (at least one event) or enabled. */
export function useUpdateWebhook() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    'PATCH /api/webhooks',
    (_k: string, { arg }: { arg: { id: string; patch: UpdateWebhookRequest } }) =>
      apiJson<WebhookEndpointView>('PATCH', path(arg.id), arg.patch),
    {
      // the answer goes into the list at once (no flicker back to the old filter), then the list reloads
      onSuccess: (updated) =>
        void mutate<WebhookEndpointView[] | null>(swrKeys.webhooks, (list) =>
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
export function sendTestEvent(id: string): Promise<MessageIdView> {
  return apiJson<MessageIdView>('POST', `${path(id)}/test`);
}

/** POST /api/webhooks/:id/deliveries/:deliveryId/resend → 202: the same event (webhook-id) again, once. */
export function resendDelivery(id: string, deliveryId: string): Promise<MessageIdView> {
  return apiJson<MessageIdView>('POST', `${path(id)}/deliveries/${encodeURIComponent(deliveryId)}/resend`);
}

/** POST /api/webhooks/:id/rotate-secret: a new secret, shown once; the old one also signs for 24 h. */
export function useRotateWebhookSecret() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    'POST /api/webhooks/rotate-secret',
    (_k: string, { arg }: { arg: string }) =>
      apiJson<RotatedSecretView>('POST', `${path(arg)}/rotate-secret`),
    { onSuccess: () => void mutate(swrKeys.webhooks) },
  );
}
