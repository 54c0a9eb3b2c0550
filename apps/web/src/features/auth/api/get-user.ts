import useSWR from 'swr';
import { getQueryFn } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';
import type { SessionUserView } from '@csv-mapper/contracts';

/** GET /api/user: the session user, or null when signed out (401). */
export const getUser = getQueryFn<SessionUserView>({ on401: 'returnNull' });

const FIVE_MINUTES_MS = 5 * 60 * 1000;

/**
 * Who is signed in. Spec §7: fresh for 5 minutes, refetched on focus and mount after that, no retry.
 * SWR has no stale time, so the 5 minutes are the deduping and focus-throttle windows.
 */
export function useUser() {
  return useSWR<SessionUserView | null>(swrKeys.user, getUser, {
    revalidateOnFocus: true,
    revalidateOnMount: true,
    revalidateIfStale: true,
    dedupingInterval: FIVE_MINUTES_MS,
    focusThrottleInterval: FIVE_MINUTES_MS,
    shouldRetryOnError: false,
  });
}
