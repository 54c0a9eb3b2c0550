import type { PreviewResponse, ProcessRequest, ProcessResponse, QueuedResponse } from '@csv-mapper/contracts';
import { apiJson } from '../../../lib/api-client';

/** What the mapper sends: the request DTO, whose output options the api defaults when left out. */
export type ProcessBody = Omit<ProcessRequest, 'options'> & Partial<Pick<ProcessRequest, 'options'>>;

/** POST /api/process: the generated CSV and what limited it, or 202 when it runs as a background job. */
export function processMapping(body: ProcessBody): Promise<ProcessResponse | QueuedResponse> {
  return apiJson<ProcessResponse | QueuedResponse>('POST', '/api/process', body);
}

/** POST /api/process/preview: the first output rows for the current mappings (uses no quota). */
export function previewMapping(body: ProcessBody): Promise<PreviewResponse> {
  return apiJson<PreviewResponse>('POST', '/api/process/preview', body);
}
