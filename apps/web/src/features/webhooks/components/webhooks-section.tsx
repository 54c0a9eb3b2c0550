import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Code,
  Field,
  HStack,
  Input,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { showToast } from '../../../components/toaster';
import { errorDescription } from '../../../lib/api-client';
import {
  sendTestEvent,
  useCreateWebhook,
  useDeleteWebhook,
  useUpdateWebhook,
  useWebhookDeliveries,
  useWebhooks,
  WEBHOOK_EVENTS,
  type CreatedWebhookEndpoint,
  type WebhookEndpoint,
  type WebhookEvent,
} from '../api/webhooks';

const timeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'short', timeStyle: 'medium' });

function Deliveries({ id }: { id: string }) {
  const { data, isLoading } = useWebhookDeliveries(id);
  if (isLoading) return <Skeleton height="8" />;
  if (!data || data.length === 0)
    return (
      <Text fontSize="sm" color="fg.muted">
        No deliveries yet.
      </Text>
    );
  return (
    <Stack as="ul" gap="1" fontSize="xs" ps="0" listStyleType="none">
      {data.slice(0, 10).map((d) => (
        <HStack as="li" key={d.id} gap="2" wrap="wrap">
          <Badge colorPalette={d.statusCode && d.statusCode < 300 ? 'green' : 'red'}>
            {d.statusCode ?? 'no answer'}
          </Badge>
          <Text>
            {d.event} · attempt {d.attempt} · {d.durationMs ?? '–'} ms ·{' '}
            {timeFormat.format(new Date(d.createdAt))}
          </Text>
          {d.error ? <Text color="red.600">{d.error}</Text> : null}
        </HStack>
      ))}
    </Stack>
  );
}

function EndpointRow({ endpoint }: { endpoint: WebhookEndpoint }) {
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const [showLog, setShowLog] = useState(false);
  const [testing, setTesting] = useState(false);

  const fail = (title: string, fallback: string) => (err: unknown) =>
    showToast({ title, description: errorDescription(err, fallback), type: 'error' });

  return (
    <Box as="li" listStyleType="none" borderTopWidth="1px" py="3">
      <Stack gap="2">
        <HStack justify="space-between" gap="2" wrap="wrap">
          <Text fontFamily="mono" fontSize="sm" wordBreak="break-all">
            {endpoint.url}
          </Text>
          <Badge colorPalette={endpoint.enabled ? 'green' : 'gray'}>
            {endpoint.enabled ? 'Enabled' : 'Disabled'}
          </Badge>
        </HStack>
        <Text fontSize="xs" color="fg.muted">
          Events: {endpoint.events.join(', ')}
          {endpoint.disabledReason ? ` · ${endpoint.disabledReason}` : ''}
        </Text>
        <HStack gap="2" wrap="wrap">
          <Button
            size="xs"
            variant="outline"
            loading={testing}
            loadingText="Sending..."
            onClick={async () => {
              setTesting(true);
              try {
                await sendTestEvent(endpoint.id);
                showToast({
                  title: 'Test event sent',
                  description: 'Check your endpoint and the delivery log.',
                  type: 'success',
                });
              } catch (err) {
                fail('Test failed', 'Failed to send the test event')(err);
              } finally {
                setTesting(false);
              }
            }}
          >
            Send test event
          </Button>
          <Button
            size="xs"
            variant="outline"
            loading={update.isMutating}
            onClick={() =>
              update
                .trigger({ id: endpoint.id, enabled: !endpoint.enabled })
                .catch(fail('Update failed', 'Failed to update the endpoint'))
            }
          >
            {endpoint.enabled ? 'Disable' : 'Enable'}
          </Button>
          <Button size="xs" variant="ghost" onClick={() => setShowLog((v) => !v)} aria-expanded={showLog}>
            {showLog ? 'Hide deliveries' : 'Show deliveries'}
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
        {showLog ? <Deliveries id={endpoint.id} /> : null}
      </Stack>
    </Box>
  );
}

/** Webhook endpoints (plans with webhook support): job.completed / job.failed, signed; secret shown once. */
export function WebhooksSection() {
  const { data, error, isLoading } = useWebhooks();
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>([...WEBHOOK_EVENTS]);
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);

  async function onCreate(e: FormEvent) {
    e.preventDefault();
    try {
      setCreated(await create.trigger({ url: url.trim(), events }));
      setUrl('');
    } catch (err) {
      showToast({
        title: 'Endpoint not added',
        description: errorDescription(err, 'Failed to add the endpoint'),
        type: 'error',
      });
    }
  }

  return (
    <Card.Root aria-labelledby="webhooks-title">
      <Card.Header>
        <Card.Title id="webhooks-title">Webhooks</Card.Title>
        <Card.Description>
          We POST a signed JSON event when a background job completes or fails (Standard Webhooks headers{' '}
          <Code fontSize="xs">webhook-id</Code>, <Code fontSize="xs">webhook-timestamp</Code>,{' '}
          <Code fontSize="xs">webhook-signature</Code>).
        </Card.Description>
      </Card.Header>
      <Card.Body gap="5">
        {created ? (
          <Alert.Root status="success" variant="subtle" alignItems="flex-start">
            <Alert.Indicator />
            <Alert.Content gap="2" minW="0">
              <Alert.Title>Signing secret for {created.url}</Alert.Title>
              <Alert.Description>Copy it now: it will not be shown again.</Alert.Description>
              <Code
                px="2"
                py="1.5"
                fontSize="sm"
                wordBreak="break-all"
                whiteSpace="normal"
                data-testid="webhook-secret"
              >
                {created.secret}
              </Code>
              <Button size="xs" variant="ghost" alignSelf="flex-start" onClick={() => setCreated(null)}>
                I have saved it
              </Button>
            </Alert.Content>
          </Alert.Root>
        ) : null}
        <Stack as="form" gap="3" onSubmit={onCreate}>
          <Field.Root required>
            <Field.Label>Endpoint URL</Field.Label>
            <Input
              name="webhookUrl"
              type="url"
              placeholder="https://example.com/hooks/csv-mapper"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
            />
          </Field.Root>
          <HStack gap="4" wrap="wrap">
            {WEBHOOK_EVENTS.map((ev) => (
              <Checkbox.Root
                key={ev}
                checked={events.includes(ev)}
                onCheckedChange={(d) =>
                  setEvents((cur) => (d.checked ? [...new Set([...cur, ev])] : cur.filter((x) => x !== ev)))
                }
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>{ev}</Checkbox.Label>
              </Checkbox.Root>
            ))}
          </HStack>
          <Button
            type="submit"
            alignSelf="flex-start"
            loading={create.isMutating}
            loadingText="Adding..."
            disabled={!url.trim() || events.length === 0}
          >
            Add endpoint
          </Button>
        </Stack>
        {isLoading ? (
          <Skeleton height="10" />
        ) : error ? (
          <Text fontSize="sm" color="fg.muted">
            Webhook endpoints could not be loaded. Refresh the page to try again.
          </Text>
        ) : !data || data.length === 0 ? (
          <Text fontSize="sm" color="fg.muted">
            No endpoints yet.
          </Text>
        ) : (
          <Stack as="ul" gap="0" ps="0" m="0">
            {data.map((ep) => (
              <EndpointRow key={ep.id} endpoint={ep} />
            ))}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
