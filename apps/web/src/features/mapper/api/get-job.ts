import useSWR from 'swr';
import { getQueryFn } from '../../../lib/api-client';
import type { ControlTotal, Warning } from './types';

/** GET /api/jobs/:id as the mapper's step 4 reads it. */
export interface MapperJob {
  id: string;
  state: 'queued' | 'active' | 'completed' | 'failed' | 'cancelled';
  progress: number;
  rowsProcessed: number;
  totalRows: number;
  warnings: number;
  warningSamples?: Warning[];
  controlTotals?: ControlTotal[];
  filename: string;
  error: string | null;
  resultUrl: string | null;
}

export const getJob = getQueryFn<MapperJob>({ on401: 'throw' });

/** Polls every second until the job has finished (completed, failed or cancelled). */
export function useJob(id: string | null) {
  return useSWR<MapperJob | null>(id ? ['/api/jobs', encodeURIComponent(id)] : null, getJob, {
    revalidateOnMount: true,
    refreshInterval: (data) => (!data || data.state === 'queued' || data.state === 'active' ? 1000 : 0),
  });
}
