import type { JobView } from '@csv-mapper/contracts';
import useSWR from 'swr';
import { getQueryFn } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';
import { isJobRunning } from '../utils/job-state';

/** GET /api/jobs: the caller's recent background jobs, newest first. */
export const getJobs = getQueryFn<JobView[]>({ on401: 'throw' });

/** Polls every second while a job is queued or running, then stops. */
export function useJobs() {
  return useSWR<JobView[] | null>(swrKeys.jobs, getJobs, {
    revalidateOnMount: true,
    refreshInterval: (data) => (data?.some(isJobRunning) ? 1000 : 0),
  });
}
