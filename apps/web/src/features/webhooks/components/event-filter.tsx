import { Checkbox, Fieldset, HStack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { errorDescription } from '../../../lib/api-client';
import type { WebhookEndpointView, WebhookEventType } from '@csv-mapper/contracts';
import { useUpdateWebhook, WEBHOOK_EVENTS } from '../api/webhooks';

const AT_LEAST_ONE = 'Choose at least one event: an endpoint with none would receive nothing.';

/** The three job events as a labelled group of checkboxes. Keeps at least one checked. */
export function EventCheckboxes({
  legend = 'Events',
  value,
  onChange,
  disabled,
  error,
  status,
}: {
  legend?: string;
  value: readonly WebhookEventType[];
  onChange: (next: WebhookEventType[]) => void;
  disabled?: boolean;
  /** Shown under the boxes, announced (the api's refusal, or the at-least-one rule). */
  error?: string | null;
  /** A quiet, polite note such as "Saved". */
  status?: string | null;
}) {
  const [ruleError, setRuleError] = useState<string | null>(null);
  const shown = error ?? ruleError;
  // The last ticked box is read-only rather than refused after the click: a refused click would leave the
  // hidden input unticked while the box still shows a tick.
  const last = value.length === 1 ? value[0] : null;

  function toggle(ev: WebhookEventType, checked: boolean) {
    const next = checked
      ? WEBHOOK_EVENTS.filter((e) => e === ev || value.includes(e))
      : value.filter((e) => e !== ev);
    if (next.length === 0) {
      setRuleError(AT_LEAST_ONE);
      return;
    }
    setRuleError(null);
    onChange(next);
  }

  return (
    <Fieldset.Root invalid={Boolean(shown)} disabled={disabled} gap="1.5">
      <Fieldset.Legend fontSize="sm" fontWeight="medium">
        {legend}
      </Fieldset.Legend>
      <HStack gap={{ base: '3', sm: '5' }} wrap="wrap">
        {WEBHOOK_EVENTS.map((ev) => (
          <Checkbox.Root
            key={ev}
            size="sm"
            checked={value.includes(ev)}
            readOnly={ev === last}
            onClick={ev === last ? () => setRuleError(AT_LEAST_ONE) : undefined}
            onCheckedChange={(d) => toggle(ev, d.checked === true)}
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label fontFamily="mono" fontSize="xs">
              {ev}
            </Checkbox.Label>
          </Checkbox.Root>
        ))}
      </HStack>
      <Text role="alert" fontSize="xs" color="fg.error" hidden={!shown}>
        {shown}
      </Text>
      <Text aria-live="polite" fontSize="xs" color="fg.muted" hidden={!status || Boolean(shown)}>
        {status}
      </Text>
    </Fieldset.Root>
  );
}

/** An endpoint's event filter: each change is saved at once (PATCH events); a refusal shows the api's text. */
export function EndpointEventFilter({ endpoint }: { endpoint: WebhookEndpointView }) {
  const update = useUpdateWebhook();
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  // shown while the PATCH runs, so the box moves at once; the list's refresh replaces it
  const [pending, setPending] = useState<WebhookEventType[] | null>(null);

  async function save(events: WebhookEventType[]) {
    setPending(events);
    setError(null);
    setSaved(false);
    try {
      await update.trigger({ id: endpoint.id, patch: { events } });
      setSaved(true);
    } catch (err) {
      setError(errorDescription(err, 'The event filter could not be saved. Please try again.'));
    } finally {
      setPending(null);
    }
  }

  return (
    <EventCheckboxes
      legend="Events sent to this endpoint"
      value={pending ?? endpoint.events}
      onChange={(next) => void save(next)}
      disabled={update.isMutating}
      error={error}
      status={saved ? 'Event filter saved.' : null}
    />
  );
}
