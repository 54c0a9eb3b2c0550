import type { MappingRunsPage } from '@csv-mapper/contracts';
import useSWR from 'swr';
import { getQueryFn } from '../../../lib/api-client';

/** Runs shown on a saved mapping's card. */
export const LAST_RUNS = 3;

/** GET /api/mappings/:id/runs?limit=3: the mapping's last runs, newest first (null id: none asked). */
export function useMappingRuns(id: string | null) {
  return useSWR<MappingRunsPage | null>(
    id ? `/api/mappings/${encodeURIComponent(id)}/runs?limit=${LAST_RUNS}` : null,
    getQueryFn<MappingRunsPage>({ on401: 'returnNull' }),
    { revalidateOnFocus: false, shouldRetryOnError: false },
  );
}
