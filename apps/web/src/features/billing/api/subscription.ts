import useSWRMutation from 'swr/mutation';
import { apiJson } from '../../../lib/api-client';
import type { CheckoutResult, PaidPlanKey, SyncResult, UpgradePlanResult } from './types';
import { useRefreshAccount } from './refresh-account';

// Spec §7 plan and subscription calls. Each hook is one endpoint; every one that changes the plan re-reads
// the profile, the session user and the saved mappings afterwards.

/** POST /api/create-checkout-session → the checkout page to send the browser to (or done at once). */
export async function createCheckoutSession(plan: PaidPlanKey): Promise<CheckoutResult> {
  const res = await apiJson<CheckoutResult>('POST', '/api/create-checkout-session', { plan });
  // Spec §8: an answer with neither a url nor success is a failure too.
  if (!res || (!res.url && !res.success)) throw new Error('Failed to start checkout process');
  return res;
}

export function useCreateCheckoutSession() {
  const refresh = useRefreshAccount();
  return useSWRMutation(
    '/api/create-checkout-session',
    (_k: string, { arg }: { arg: PaidPlanKey }) => createCheckoutSession(arg),
    {
      onSuccess: (res) => {
        if (!res.url) void refresh();
      },
    },
  );
}

/** POST /api/user/upgrade-plan: done or scheduled (success true) or a checkout url to follow. */
export async function upgradePlan(plan: 'free' | PaidPlanKey): Promise<UpgradePlanResult> {
  const res = await apiJson<UpgradePlanResult>('POST', '/api/user/upgrade-plan', { plan });
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
    () => apiJson<{ message: string }>('POST', '/api/cancel-subscription'),
    { onSuccess: () => void refresh() },
  );
}

export function useReactivateSubscription() {
  const refresh = useRefreshAccount();
  return useSWRMutation(
    '/api/reactivate-subscription',
    () => apiJson<{ message: string }>('POST', '/api/reactivate-subscription'),
    { onSuccess: () => void refresh() },
  );
}

/** POST /api/sync-subscription-status: re-reads the provider's subscription; the caller refreshes. */
export function syncSubscriptionStatus(): Promise<SyncResult> {
  return apiJson<SyncResult>('POST', '/api/sync-subscription-status');
}
