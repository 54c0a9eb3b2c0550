import { Button, Stack, Text } from '@chakra-ui/react';
import { showToast } from '../../../components/toaster';
import { errorDescription } from '../../../lib/api-client';
import { useCancelSubscription, useReactivateSubscription } from '../api/subscription';
import type { BillingProfile } from '../utils/billing-profile';
import { cancellationDateText } from '../utils/billing-format';

export const CANCEL_CONFIRM_TEXT =
  'Are you sure you want to cancel your subscription? You will lose premium features at the end of your billing period.';

// Statuses with nothing left to cancel or reactivate.
const ENDED = new Set(['incomplete', 'incomplete_expired', 'canceled']);

/** Spec §4 "Subscription management": reactivate while cancelling, else cancel after a browser confirmation. */
export function SubscriptionManagement({ profile }: { profile: BillingProfile }) {
  const cancel = useCancelSubscription();
  const reactivate = useReactivateSubscription();
  const sub = profile.subscription;
  if (profile.plan === 'free' || !sub || ENDED.has(sub.status)) return null;

  async function onCancel() {
    if (!window.confirm(CANCEL_CONFIRM_TEXT)) return;
    try {
      const res = await cancel.trigger();
      showToast({ title: 'Subscription Cancelled', description: res?.message, type: 'success' });
    } catch (err) {
      showToast({
        title: 'Cancellation Failed',
        description: errorDescription(err, 'Failed to cancel subscription'),
        type: 'error',
      });
    }
  }

  async function onReactivate() {
    try {
      const res = await reactivate.trigger();
      showToast({ title: 'Subscription Reactivated', description: res?.message, type: 'success' });
    } catch (err) {
      showToast({
        title: 'Reactivation Failed',
        description: errorDescription(err, 'Failed to reactivate subscription'),
        type: 'error',
      });
    }
  }

  if (sub.cancelAtPeriodEnd) {
    return (
      <Stack gap="2" align="flex-start">
        <Text fontSize="sm" color="fg.muted">
          Your subscription ends on {cancellationDateText(sub)}. You can reactivate it any time before then to
          keep your premium features.
        </Text>
        <Button
          colorPalette="blue"
          size="sm"
          loading={reactivate.isMutating}
          loadingText="Reactivating..."
          onClick={() => void onReactivate()}
        >
          Reactivate Subscription
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="2" align="flex-start">
      <Text fontSize="sm" color="fg.muted">
        Cancelling stops the renewal: you keep your premium features until the end of the billing period.
      </Text>
      <Button
        colorPalette="red"
        variant="outline"
        size="sm"
        loading={cancel.isMutating}
        loadingText="Cancelling..."
        onClick={() => void onCancel()}
      >
        Cancel Subscription
      </Button>
    </Stack>
  );
}
