import { Badge, Box, Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import type { WebhookDeliveryView, WebhookEndpointView } from '@csv-mapper/contracts';
import { useCallback, useState } from 'react';
import { showToast } from '../../../components/toaster';
import { errorDescription } from '../../../lib/api-client';
import {
  resendDelivery,
  sendTestEvent,
  useDeleteWebhook,
  useRotateWebhookSecret,
  useUpdateWebhook,
  useWebhookDeliveries,
} from '../api/webhooks';
import { DeliveryLog, formatTime } from './delivery-log';
import { EndpointEventFilter } from './event-filter';
import { RotateSecretDialog } from './rotate-secret-dialog';
import { SecretNotice } from '../../../components/secret-notice';

const POLL_MS = 2000;
/** How long the log is polled after a send or resend, unless the new attempt shows up sooner. */
const AWAIT_MS = 20_000;
/** A retry due within this window keeps the log polling, so its attempt appears without a reload. */
const RETRY_SOON_MS = 60_000;

interface Awaited {
  messageId: string;
  /** Attempts of that message already in the log when it was sent. */
  seen: number;
  until: number;
}

function retryDueSoon(log: WebhookDeliveryView[], now: number): boolean {
  const newest = new Map<string, WebhookDeliveryView>();
  for (const d of log) if (!newest.has(d.messageId)) newest.set(d.messageId, d);
  return [...newest.values()].some(
    (d) =>
      d.outcome === 'retrying' &&
      d.nextRetryAt !== null &&
      new Date(d.nextRetryAt).getTime() - now < RETRY_SOON_MS,
  );
}

/** The log of one endpoint, polled every 2 s while an attempt is awaited or a retry is due soon. */
function useLiveDeliveries(id: string, enabled: boolean) {
  const [awaited, setAwaited] = useState<Awaited | null>(null);
  const refreshInterval = useCallback(
    (log: WebhookDeliveryView[] | null | undefined) => {
      const now = Date.now();
      if (awaited && now < awaited.until) {
        const arrived = (log ?? []).filter((d) => d.messageId === awaited.messageId);
        if (arrived.length <= awaited.seen || arrived[0].outcome === 'retrying') return POLL_MS;
      }
      return log && retryDueSoon(log, now) ? POLL_MS : 0;
    },
    [awaited],
  );
  const swr = useWebhookDeliveries(enabled ? id : null, refreshInterval);
  const expect = useCallback(
    (messageId: string) => {
      const seen = (swr.data ?? []).filter((d) => d.messageId === messageId).length;
      setAwaited({ messageId, seen, until: Date.now() + AWAIT_MS });
      void swr.mutate();
    },
    [swr],
  );
  return { ...swr, expect };
}

/** One endpoint: its event filter, test / rotate / enable / delete actions and its delivery log. */
export function EndpointItem({ endpoint }: { endpoint: WebhookEndpointView }) {
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const rotate = useRotateWebhookSecret();
  const [showLog, setShowLog] = useState(true);
  const log = useLiveDeliveries(endpoint.id, showLog);
  const [testing, setTesting] = useState(false);
  const [resendingId, setResendingId] = useState<string | null>(null);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [newSecret, setNewSecret] = useState<string | null>(null);

  const fail = (title: string, fallback: string) => (err: unknown) =>
    showToast({ title, description: errorDescription(err, fallback), type: 'error' });

  const headingId = `webhook-${endpoint.id}`;
  const logId = `webhook-${endpoint.id}-log`;
  const previousUntil =
    endpoint.previousSecretExpiresAt && new Date(endpoint.previousSecretExpiresAt).getTime() > Date.now()
      ? endpoint.previousSecretExpiresAt
      : null;

  async function sendTest() {
    setTesting(true);
    try {
      const { messageId } = await sendTestEvent(endpoint.id);
      setShowLog(true);
      log.expect(messageId);
      showToast({
        title: 'Test event sent',
        description: 'Its delivery appears in the log below in a few seconds.',
        type: 'success',
      });
    } catch (err) {
      fail('Test event not sent', 'Failed to send the test event')(err);
    } finally {
      setTesting(false);
    }
  }

  async function resend(d: WebhookDeliveryView) {
    setResendingId(d.id);
    try {
      const { messageId } = await resendDelivery(endpoint.id, d.id);
      log.expect(messageId);
      showToast({
        title: 'Delivery resent',
        description: `The ${d.event} event is on its way again with the same webhook-id.`,
        type: 'success',
      });
    } catch (err) {
      fail('Resend failed', 'Failed to resend the delivery')(err);
    } finally {
      setResendingId(null);
    }
  }

  async function rotateSecret() {
    try {
      const { secret } = await rotate.trigger(endpoint.id);
      setNewSecret(secret);
      setConfirmRotate(false);
    } catch (err) {
      setConfirmRotate(false);
      fail('Secret not rotated', 'Failed to rotate the signing secret')(err);
    }
  }

  return (
    <Box as="li" listStyleType="none" borderTopWidth="1px" py="4" aria-labelledby={headingId}>
      <Stack gap="3">
        <HStack justify="space-between" align="flex-start" gap="2">
          <Heading
            as="h4"
            id={headingId}
            fontFamily="mono"
            fontSize="sm"
            fontWeight="medium"
            wordBreak="break-all"
            minW="0"
          >
            {endpoint.url}
          </Heading>
          <Badge colorPalette={endpoint.enabled ? 'green' : 'gray'} flexShrink={0}>
            {endpoint.enabled ? 'Enabled' : 'Disabled'}
          </Badge>
        </HStack>
        {endpoint.disabledReason ? (
          <Text fontSize="xs" color="fg.warning">
            {endpoint.disabledReason}
          </Text>
        ) : null}
        {newSecret ? (
          <SecretNotice
            title="New signing secret"
            description={
              'Copy it now: it will not be shown again. The previous secret keeps signing for 24 hours.'
            }
            secret={newSecret}
            onDone={() => setNewSecret(null)}
          />
        ) : null}
        {previousUntil ? (
          <Text fontSize="xs" color="fg.muted" data-testid="previous-secret-note">
            Previous secret valid until {formatTime(previousUntil)}
          </Text>
        ) : null}

        <EndpointEventFilter endpoint={endpoint} />

        <HStack gap="2" wrap="wrap">
          <Button size="xs" variant="outline" loading={testing} loadingText="Sending..." onClick={sendTest}>
            Send test event
          </Button>
          <Button size="xs" variant="outline" onClick={() => setConfirmRotate(true)}>
            Rotate secret
          </Button>
          <Button
            size="xs"
            variant="outline"
            loading={update.isMutating}
            onClick={() =>
              update
                .trigger({ id: endpoint.id, patch: { enabled: !endpoint.enabled } })
                .catch(fail('Update failed', 'Failed to update the endpoint'))
            }
          >
            {endpoint.enabled ? 'Disable' : 'Enable'}
          </Button>
          <Button
            size="xs"
            variant="outline"
            colorPalette="red"
            loading={remove.isMutating}
            loadingText="Deleting..."
            onClick={() => {
              if (!window.confirm(`Delete the webhook endpoint ${endpoint.url}?`)) return;
              remove.trigger(endpoint.id).catch(fail('Delete failed', 'Failed to delete the endpoint'));
            }}
          >
            Delete
          </Button>
        </HStack>

        <Stack gap="2">
          <HStack justify="space-between" gap="2">
            <Heading as="h5" id={logId} fontSize="sm" fontWeight="semibold">
              Delivery log
            </Heading>
            <Button
              size="2xs"
              variant="ghost"
              aria-label={`${showLog ? 'Hide' : 'Show'} delivery log`}
              aria-expanded={showLog}
              aria-controls={showLog ? `${logId}-body` : undefined}
              onClick={() => setShowLog((v) => !v)}
            >
              {showLog ? 'Hide' : 'Show'}
            </Button>
          </HStack>
          {showLog ? (
            <Box id={`${logId}-body`}>
              <DeliveryLog
                labelId={logId}
                deliveries={log.data}
                isLoading={log.isLoading}
                error={log.error}
                resendingId={resendingId}
                onResend={resend}
              />
            </Box>
          ) : null}
        </Stack>
      </Stack>

      <RotateSecretDialog
        url={endpoint.url}
        open={confirmRotate}
        busy={rotate.isMutating}
        onConfirm={rotateSecret}
        onClose={() => setConfirmRotate(false)}
      />
    </Box>
  );
}
