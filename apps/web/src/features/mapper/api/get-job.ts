import type { JobView } from '@csv-mapper/contracts';
import useSWR from 'swr';
import { getQueryFn } from '../../../lib/api-client';

/** GET /api/jobs/:id as the mapper's step 4 reads it. */
export const getJob = getQueryFn<JobView>({ on401: 'throw' });

/** Polls every second until the job has finished (completed, failed or cancelled). */
export function useJob(id: string | null) {
  return useSWR<JobView | null>(id ? ['/api/jobs', encodeURIComponent(id)] : null, getJob, {
    revalidateOnMount: true,
    refreshInterval: (data) => (!data || data.state === 'queued' || data.state === 'active' ? 1000 : 0),
  });
}
