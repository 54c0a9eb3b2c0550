import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { swrKeys } from '../../../lib/swr-keys';

/** After any plan change: the profile, the session user and the saved mappings (locks) are re-read. */
export function useRefreshAccount(): () => Promise<void> {
  const { mutate } = useSWRConfig();
  return useCallback(async () => {
    await Promise.all([mutate(swrKeys.profile), mutate(swrKeys.user), mutate(swrKeys.mappings)]);
  }, [mutate]);
}

/**
 * Spec §4/§7: the no-cache profile refresh — a timestamp query parameter and `cache: 'no-store'` so no
 * browser or proxy cache answers — whose result replaces the cached profile without another request.
 */
export function useNoCacheProfileRefresh(): () => Promise<void> {
  const { mutate } = useSWRConfig();
  return useCallback(async () => {
    const res = await fetch(`/api/user/profile?t=${Date.now()}`, {
      credentials: 'include',
      cache: 'no-store',
      headers: { 'X-Requested-With': 'csv-mapper', Accept: 'application/json' },
    });
    if (!res.ok) return;
    const profile: unknown = await res.json();
    await mutate(swrKeys.profile, profile, { revalidate: false });
  }, [mutate]);
}
