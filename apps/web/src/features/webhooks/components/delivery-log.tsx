import { Badge, Box, Button, Code, HStack, Skeleton, Table, Text } from '@chakra-ui/react';
import { Fragment, useState } from 'react';
import type { WebhookDeliveryView } from '@csv-mapper/contracts';

const timeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'short', timeStyle: 'medium' });

export function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : timeFormat.format(d);
}

const OUTCOME_PALETTE: Record<WebhookDeliveryView['outcome'], string> = {
  succeeded: 'green',
  retrying: 'orange',
  failed: 'red',
};

function StatusCell({ delivery }: { delivery: WebhookDeliveryView }) {
  if (delivery.statusCode !== null)
    return (
      <Text as="span" fontFamily="mono">
        {delivery.statusCode}
      </Text>
    );
  return (
    <Text as="span" color="fg.error" whiteSpace="normal" display="block" minW="10rem" maxW="16rem">
      {delivery.error ?? 'No answer'}
    </Text>
  );
}

function DeliveryRow({
  delivery,
  resending,
  onResend,
}: {
  delivery: WebhookDeliveryView;
  resending: boolean;
  onResend: () => void;
}) {
  const [open, setOpen] = useState(false);
  const d = delivery;
  const snippetId = `delivery-response-${d.id}`;
  const what = `${d.event} attempt ${d.attempt} of ${formatTime(d.createdAt)}`;

  return (
    <Fragment>
      <Table.Row data-testid="delivery-row" data-delivery-id={d.id}>
        <Table.Cell>{formatTime(d.createdAt)}</Table.Cell>
        <Table.Cell fontFamily="mono">{d.event}</Table.Cell>
        <Table.Cell textAlign="end">{d.attempt}</Table.Cell>
        <Table.Cell>
          <StatusCell delivery={d} />
        </Table.Cell>
        <Table.Cell textAlign="end">{d.durationMs === null ? '–' : `${d.durationMs} ms`}</Table.Cell>
        <Table.Cell>
          <Badge colorPalette={OUTCOME_PALETTE[d.outcome]}>{d.outcome}</Badge>
          {d.outcome === 'retrying' && d.nextRetryAt ? (
            <Text fontSize="xs" color="fg.muted" mt="1">
              Next retry {formatTime(d.nextRetryAt)}
            </Text>
          ) : null}
        </Table.Cell>
        <Table.Cell>
          <HStack gap="1">
            <Button
              size="2xs"
              variant="ghost"
              aria-expanded={open}
              aria-controls={open ? snippetId : undefined}
              aria-label={`${open ? 'Hide' : 'Show'} response of ${what}`}
              onClick={() => setOpen((v) => !v)}
            >
              {open ? 'Hide response' : 'Response'}
            </Button>
            <Button
              size="2xs"
              variant="outline"
              loading={resending}
              loadingText="Resending..."
              aria-label={`Resend ${what}`}
              onClick={onResend}
            >
              Resend
            </Button>
          </HStack>
        </Table.Cell>
      </Table.Row>
      {open ? (
        <Table.Row>
          <Table.Cell colSpan={7} bg="bg.subtle" id={snippetId}>
            <Text fontSize="xs" color="fg.muted" mb="1">
              Response body (first 1 KB)
            </Text>
            {d.responseSnippet ? (
              <Code
                as="pre"
                display="block"
                whiteSpace="pre-wrap"
                wordBreak="break-all"
                fontSize="xs"
                p="2"
                maxH="12rem"
                overflowY="auto"
                data-testid="delivery-response"
              >
                {d.responseSnippet}
              </Code>
            ) : (
              <Text fontSize="xs">The receiver sent no body.</Text>
            )}
          </Table.Cell>
        </Table.Row>
      ) : null}
    </Fragment>
  );
}

/** The last 100 delivery attempts of one endpoint, newest first, each with its response and a Resend button. */
export function DeliveryLog({
  labelId,
  deliveries,
  isLoading,
  error,
  resendingId,
  onResend,
}: {
  labelId: string;
  deliveries: WebhookDeliveryView[] | null | undefined;
  isLoading: boolean;
  error: unknown;
  resendingId: string | null;
  onResend: (delivery: WebhookDeliveryView) => void;
}) {
  if (isLoading && !deliveries)
    return <Skeleton height="16" aria-busy="true" aria-label="Loading deliveries" />;
  if (error && !deliveries)
    return (
      <Text fontSize="sm" color="fg.muted">
        The delivery log could not be loaded. Refresh the page to try again.
      </Text>
    );
  if (!deliveries || deliveries.length === 0)
    return (
      <Text fontSize="sm" color="fg.muted">
        No deliveries yet. Send a test event to see one here.
      </Text>
    );
  return (
    <Box>
      <Table.ScrollArea
        borderWidth="1px"
        rounded="md"
        maxH="28rem"
        tabIndex={0}
        role="region"
        aria-labelledby={labelId}
      >
        <Table.Root size="sm" stickyHeader aria-labelledby={labelId}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Time</Table.ColumnHeader>
              <Table.ColumnHeader>Event</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Attempt</Table.ColumnHeader>
              <Table.ColumnHeader>Status</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Duration</Table.ColumnHeader>
              <Table.ColumnHeader>Outcome</Table.ColumnHeader>
              <Table.ColumnHeader>
                <Text as="span" srOnly>
                  Actions
                </Text>
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {deliveries.map((d) => (
              <DeliveryRow
                key={d.id}
                delivery={d}
                resending={resendingId === d.id}
                onResend={() => onResend(d)}
              />
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
    </Box>
  );
}
