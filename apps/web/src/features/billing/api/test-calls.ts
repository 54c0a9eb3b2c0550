import type { ActivateSubscriptionResponse, MessageResponse } from '@csv-mapper/contracts';
import useSWRMutation from 'swr/mutation';
import { apiJson } from '../../../lib/api-client';
import { useRefreshAccount } from './refresh-account';

// The simulated provider's test-only calls (spec §7; 404 with real Stripe or in production).

export function useSimulatePaymentSuccess() {
  const refresh = useRefreshAccount();
  return useSWRMutation(
    '/api/test/simulate-payment-success',
    (_k: string, { arg }: { arg: string }) =>
      apiJson<MessageResponse>('POST', '/api/test/simulate-payment-success', { subscriptionId: arg }),
    { onSuccess: () => void refresh() },
  );
}

export function useResetSubscription() {
  const refresh = useRefreshAccount();
  return useSWRMutation(
    '/api/test/reset-subscription',
    () => apiJson<MessageResponse>('POST', '/api/test/reset-subscription'),
    { onSuccess: () => void refresh() },
  );
}

export function useActivateSubscription() {
  const refresh = useRefreshAccount();
  return useSWRMutation(
    '/api/test/activate-subscription',
    (_k: string, { arg }: { arg: string }) =>
      apiJson<ActivateSubscriptionResponse>('POST', '/api/test/activate-subscription', {
        subscriptionId: arg,
      }),
    { onSuccess: () => void refresh() },
  );
}
