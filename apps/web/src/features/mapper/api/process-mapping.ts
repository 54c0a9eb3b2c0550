import { apiJson } from '../../../lib/api-client';
import type { PreviewResult, ProcessRequest, ProcessResult, QueuedResult } from './types';

/** POST /api/process: the generated CSV and what limited it. */
export function processMapping(body: ProcessRequest): Promise<ProcessResult | QueuedResult> {
  return apiJson<ProcessResult | QueuedResult>('POST', '/api/process', body);
}

/** POST /api/process/preview: the first output rows for the current mappings (uses no quota). */
export function previewMapping(body: ProcessRequest): Promise<PreviewResult> {
  return apiJson<PreviewResult>('POST', '/api/process/preview', body);
}
