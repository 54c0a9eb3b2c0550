import type {
  CheckoutResponse,
  MessageResponse,
  PaidPlanKey,
  SyncSubscriptionResponse,
  UpgradePlanResponse,
} from '@csv-mapper/contracts';
import useSWRMutation from 'swr/mutation';
import { apiJson } from '../../../lib/api-client';
import { useRefreshAccount } from './refresh-account';

// Spec §7 plan and subscription calls. Each hook is one endpoint; every one that changes the plan re-reads
// the profile, the session user and the saved mappings afterwards.

/** POST /api/create-checkout-session → the checkout page to send the browser to. */
export async function createCheckoutSession(plan: PaidPlanKey): Promise<CheckoutResponse> {
  const res = await apiJson<CheckoutResponse>('POST', '/api/create-checkout-session', { plan });
  // Spec §8: an answer without a url is a failure too.
  if (!res?.url) throw new Error('Failed to start checkout process');
  return res;
}

/** The browser leaves for the checkout page; the return page (use-payment-return) refreshes the account. */
export function useCreateCheckoutSession() {
  return useSWRMutation('/api/create-checkout-session', (_k: string, { arg }: { arg: PaidPlanKey }) =>
    createCheckoutSession(arg),
  );
}

/** POST /api/user/upgrade-plan: done or scheduled (success true) or a checkout url to follow. */
export async function upgradePlan(plan: 'free' | PaidPlanKey): Promise<UpgradePlanResponse> {
  const res = await apiJson<UpgradePlanResponse>('POST', '/api/user/upgrade-plan', { plan });
  if (!res || (!res.success && !res.url)) throw new Error('The server did not confirm the plan change.');
  return res;
}

export function useUpgradePlan() {
  const refresh = useRefreshAccount();
  return useSWRMutation(
    '/api/user/upgrade-plan',
    (_k: string, { arg }: { arg: 'free' | PaidPlanKey }) => upgradePlan(arg),
    {
      onSuccess: (res) => {
        if (res.success) void refresh();
      },
    },
  );
}

export function useCancelSubscription() {
  const refresh = useRefreshAccount();
  return useSWRMutation(
    '/api/cancel-subscription',
    () => apiJson<MessageResponse>('POST', '/api/cancel-subscription'),
    { onSuccess: () => void refresh() },
  );
}

export function useReactivateSubscription() {
  const refresh = useRefreshAccount();
  return useSWRMutation(
    '/api/reactivate-subscription',
    () => apiJson<MessageResponse>('POST', '/api/reactivate-subscription'),
    { onSuccess: () => void refresh() },
  );
}

/** POST /api/sync-subscription-status: re-reads the provider's subscription; the caller refreshes. */
export function syncSubscriptionStatus(): Promise<SyncSubscriptionResponse> {
  return apiJson<SyncSubscriptionResponse>('POST', '/api/sync-subscription-status');
}
