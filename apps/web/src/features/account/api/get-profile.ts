import type { ProfileView } from '@csv-mapper/contracts';
import useSWR, { useSWRConfig } from 'swr';
import { getQueryFn, isUnauthorizedError } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';

/** GET /api/user/profile: plan, limits, usage. */
export const getProfile = getQueryFn<ProfileView>({ on401: 'throw' });

const PROFILE_FRESH_MS = 30 * 1000;

export interface UseProfileOptions {
  /** Spec §7: refetched on window focus on the dashboard only. */
  refreshOnFocus?: boolean;
  /** The profile is only asked for when someone is signed in. */
  enabled?: boolean;
}

/**
 * The signed-in user's profile, fresh for 30 s (spec §7/§9). A 401 means the session ended elsewhere:
 * the session user is re-checked so the protected route can send the visitor home.
 */
export function useProfile({ refreshOnFocus = false, enabled = true }: UseProfileOptions = {}) {
  const { mutate } = useSWRConfig();
  return useSWR<ProfileView | null>(enabled ? swrKeys.profile : null, getProfile, {
    revalidateIfStale: true,
    revalidateOnMount: true,
    revalidateOnFocus: refreshOnFocus,
    dedupingInterval: PROFILE_FRESH_MS,
    focusThrottleInterval: PROFILE_FRESH_MS,
    shouldRetryOnError: false,
    onError: (err) => {
      if (isUnauthorizedError(err)) void mutate(swrKeys.user);
    },
  });
}
