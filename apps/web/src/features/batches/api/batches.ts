import type { BatchCreatedResponse, BatchView, CreateBatchRequest } from '@csv-mapper/contracts';
import useSWR from 'swr';
import { apiJson, getQueryFn } from '../../../lib/api-client';

// Bulk uploads (issue 17): POST /api/batches, and the batches with their files' progress.

/** What the mapper sends: the request DTO, whose output options the api defaults when left out. */
export type BatchBody = Omit<CreateBatchRequest, 'options'> & Partial<Pick<CreateBatchRequest, 'options'>>;

/** The most data files one batch takes (the api's MAX_BATCH_FILES). */
export const MAX_BATCH_FILES = 20;

export function createBatch(body: BatchBody): Promise<BatchCreatedResponse> {
  return apiJson<BatchCreatedResponse>('POST', '/api/batches', body);
}

const getBatch = getQueryFn<BatchView>({ on401: 'throw' });
const getBatches = getQueryFn<BatchView[]>({ on401: 'throw' });

/** One batch, polled every second until every file has finished. */
export function useBatch(id: string) {
  return useSWR<BatchView | null>(['/api/batches', id], getBatch, {
    refreshInterval: (data) => (data?.state === 'completed' ? 0 : 1000),
  });
}

/** The caller's recent batches (7 days), polled while one is running. */
export function useBatches() {
  return useSWR<BatchView[] | null>(['/api/batches'], getBatches, {
    revalidateOnMount: true,
    refreshInterval: (data) => (data?.some((b) => b.state === 'running') ? 2000 : 0),
  });
}
