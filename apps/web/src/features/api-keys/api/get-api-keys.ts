import type { ApiKeyView } from '@csv-mapper/contracts';
import useSWR from 'swr';
import { getQueryFn } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';

/** GET /api/api-keys: the user's keys, newest first as the api orders them. */
export const getApiKeys = getQueryFn<ApiKeyView[]>({ on401: 'throw' });

/** Only asked for when the plan has API access. */
export function useApiKeys({ enabled = true }: { enabled?: boolean } = {}) {
  return useSWR<ApiKeyView[] | null>(enabled ? swrKeys.apiKeys : null, getApiKeys, {
    revalidateIfStale: true,
    revalidateOnMount: true,
  });
}
