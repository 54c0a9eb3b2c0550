import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { showToast } from '../../../components/toaster';
import { useNoCacheProfileRefresh, useRefreshAccount } from '../api/refresh-account';
import { syncSubscriptionStatus } from '../api/subscription';

/** Spec §9: the provider's webhook usually lands first; the sync waits this long before asking. */
export const PAYMENT_SYNC_DELAY_MS = 2000;

/**
 * Spec §4 "After payment": back from checkout with `?success=true`, the subscription status is synced
 * after 2 s and the profile, user and saved mappings re-read; with `?canceled=true` a no-cache profile
 * refresh runs in the background. Either way both parameters leave the address bar without a new
 * history entry. Sync failures stay silent (the webhook still updates the account). The timer is not
 * cancelled when the page is left: the sync is still wanted, and its refresh is global.
 */
export function usePaymentReturn(): void {
  const [params, setParams] = useSearchParams();
  const refresh = useRefreshAccount();
  const refreshNoCache = useNoCacheProfileRefresh();
  const timer = useRef<number | null>(null);
  const success = params.get('success') === 'true';
  const canceled = params.get('canceled') === 'true';

  useEffect(() => {
    if (!success && !canceled) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('success');
        next.delete('canceled');
        return next;
      },
      { replace: true },
    );
    if (success) {
      if (timer.current !== null) window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => {
        timer.current = null;
        syncSubscriptionStatus()
          .then(async (res) => {
            await refresh();
            showToast({ title: 'Subscription updated', description: res?.message, type: 'success' });
          })
          .catch(() => undefined);
      }, PAYMENT_SYNC_DELAY_MS);
    } else {
      void refreshNoCache().catch(() => undefined);
    }
  }, [success, canceled, setParams, refresh, refreshNoCache]);
}
