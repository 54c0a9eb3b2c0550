import useSWR from 'swr';
import { getQueryFn } from '../../../lib/api-client';
import { isJobRunning, type JobView } from './types';

/** GET /api/jobs/:id: one job's state and progress. */
export const getJob = getQueryFn<JobView>({ on401: 'throw' });

/** Polls every second until the job has finished (completed, failed or cancelled). */
export function useJob(id: string | null) {
  return useSWR<JobView | null>(id ? ['/api/jobs', encodeURIComponent(id)] : null, getJob, {
    revalidateOnMount: true,
    refreshInterval: (data) => (!data || isJobRunning(data) ? 1000 : 0),
  });
}
