import { Alert, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { showToast } from '../../../components/toaster';
import { errorDescription } from '../../../lib/api-client';
import type { SubscriptionView } from '@csv-mapper/contracts';
import { useActivateSubscription, useResetSubscription, useSimulatePaymentSuccess } from '../api/test-calls';
import { cancellationDateText, formatBillingDate } from '../utils/billing-format';

const PLAN_NAMES: Record<string, string> = { pro: 'Pro', business: 'Business' };

/**
 * Spec §4 "Subscription display": cancelling notice, payment failed, active, or the raw status — with the
 * simulated provider's test actions while a payment is incomplete. Also a scheduled pro ↔ business change.
 * `testActions` is off where only a summary is wanted (the dashboard).
 */
export function SubscriptionStatus({
  subscription,
  testActions = true,
}: {
  subscription: SubscriptionView | null;
  testActions?: boolean;
}) {
  if (!subscription) return null;
  return (
    <Stack gap="3" data-testid="subscription-status">
      <StatusNotice subscription={subscription} testActions={testActions} />
      {subscription.pendingPlan && subscription.pendingPlanAt ? (
        <Alert.Root status="info" size="sm">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Plan change scheduled</Alert.Title>
            <Alert.Description>
              Your plan changes to {PLAN_NAMES[subscription.pendingPlan] ?? subscription.pendingPlan} on{' '}
              {formatBillingDate(subscription.pendingPlanAt)}, at the start of your next billing cycle.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      ) : null}
    </Stack>
  );
}

function StatusNotice({
  subscription,
  testActions,
}: {
  subscription: SubscriptionView;
  testActions: boolean;
}) {
  if (subscription.cancelAtPeriodEnd) {
    return (
      <Alert.Root status="warning" colorPalette="orange" size="sm">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Subscription cancelling on {cancellationDateText(subscription)}</Alert.Title>
          <Alert.Description>You&apos;ll keep access to premium features until then</Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  }
  if (subscription.status === 'incomplete_expired') {
    return (
      <Alert.Root status="error" size="sm">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Subscription Payment Failed</Alert.Title>
          <Alert.Description>
            The first payment was never completed, so your account was downgraded to the Free plan. Choose a
            plan below to subscribe again.
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  }
  if (subscription.status === 'active') {
    return (
      <Alert.Root status="success" size="sm">
        <Alert.Indicator />
        <Alert.Title>Active subscription</Alert.Title>
      </Alert.Root>
    );
  }
  return (
    <Alert.Root status="warning" size="sm" flexDirection="column" gap="3">
      <HStack gap="3" align="flex-start">
        <Alert.Indicator />
        <Alert.Title>Subscription Status: {subscription.status}</Alert.Title>
      </HStack>
      {subscription.status === 'incomplete' && testActions ? (
        <IncompleteActions subscriptionId={subscription.id} />
      ) : null}
    </Alert.Root>
  );
}

/** Test-only (simulated provider): complete the pending payment, or drop the subscription and start over. */
function IncompleteActions({ subscriptionId }: { subscriptionId: string }) {
  const simulate = useSimulatePaymentSuccess();
  const reset = useResetSubscription();
  const activate = useActivateSubscription();
  const busy = simulate.isMutating || reset.isMutating || activate.isMutating;

  async function run(
    action: () => Promise<{ message: string } | undefined>,
    done: string,
    failed: string,
    fallback: string,
  ) {
    try {
      const res = await action();
      showToast({ title: done, description: res?.message, type: 'success' });
    } catch (err) {
      showToast({ title: failed, description: errorDescription(err, fallback), type: 'error' });
    }
  }

  return (
    <Stack gap="2" w="full">
      <HStack gap="2" flexWrap="wrap">
        <Button
          size="sm"
          colorPalette="blue"
          disabled={busy}
          loading={simulate.isMutating}
          loadingText="Simulating..."
          onClick={() =>
            void run(
              () => simulate.trigger(subscriptionId),
              'Payment Simulated',
              'Webhook Failed',
              'Failed to simulate the payment webhook',
            )
          }
        >
          Simulate Payment Webhook
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={busy}
          loading={reset.isMutating}
          loadingText="Resetting..."
          onClick={() =>
            void run(
              () => reset.trigger(),
              'Subscription Reset',
              'Reset Failed',
              'Failed to reset the subscription',
            )
          }
        >
          Reset &amp; Try Again
        </Button>
        <Button
          size="sm"
          variant="ghost"
          disabled={busy}
          loading={activate.isMutating}
          loadingText="Activating..."
          onClick={() =>
            void run(
              () => activate.trigger(subscriptionId),
              'Subscription Activated',
              'Activation Failed',
              'Failed to activate the subscription',
            )
          }
        >
          Activate Directly
        </Button>
      </HStack>
      <Text fontSize="xs" color="fg.muted">
        Test mode: try simulating the payment webhook first. If that fails, reset and create a new
        subscription.
      </Text>
    </Stack>
  );
}
