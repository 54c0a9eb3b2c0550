import { Button, Card, Code, Field, Input, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { CreatedWebhookEndpointView, WebhookEventType } from '@csv-mapper/contracts';
import { useState, type FormEvent } from 'react';
import { showToast } from '../../../components/toaster';
import { errorDescription } from '../../../lib/api-client';
import { useCreateWebhook, useWebhooks, WEBHOOK_EVENTS } from '../api/webhooks';
import { EndpointItem } from './endpoint-item';
import { EventCheckboxes } from './event-filter';
import { SecretNotice } from '../../../components/secret-notice';

/** Webhook endpoints (plans with webhook support): signed job events, a secret shown once, delivery logs. */
export function WebhooksSection() {
  const { data, error, isLoading } = useWebhooks();
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([...WEBHOOK_EVENTS]);
  const [created, setCreated] = useState<CreatedWebhookEndpointView | null>(null);

  async function onCreate(e: FormEvent) {
    e.preventDefault();
    try {
      setCreated(await create.trigger({ url: url.trim(), events }));
      setUrl('');
      setEvents([...WEBHOOK_EVENTS]);
    } catch (err) {
      showToast({
        title: 'Endpoint not added',
        description: errorDescription(err, 'Failed to add the endpoint'),
        type: 'error',
      });
    }
  }

  return (
    <Card.Root aria-labelledby="webhooks-title" minW="0">
      <Card.Header>
        <Card.Title id="webhooks-title">Webhooks</Card.Title>
        <Card.Description>
          We POST a signed JSON event when a background job completes, fails or is cancelled, and when a bulk
          upload has finished (Standard Webhooks headers <Code fontSize="xs">webhook-id</Code>,{' '}
          <Code fontSize="xs">webhook-timestamp</Code>, <Code fontSize="xs">webhook-signature</Code>).
        </Card.Description>
      </Card.Header>
      <Card.Body gap="5">
        {created ? (
          <SecretNotice
            title={`Signing secret for ${created.url}`}
            secret={created.secret}
            onDone={() => setCreated(null)}
          />
        ) : null}
        <Stack as="form" gap="3" maxW="2xl" onSubmit={onCreate} aria-label="Add a webhook endpoint">
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
          <EventCheckboxes legend="Events to send" value={events} onChange={setEvents} />
          <Button
            type="submit"
            alignSelf="flex-start"
            colorPalette="blue"
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
          <Stack as="ul" gap="0" ps="0" m="0" aria-label="Your webhook endpoints">
            {data.map((ep) => (
              <EndpointItem key={ep.id} endpoint={ep} />
            ))}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
