import type { UpdateUploadRequest, UploadRecord } from '@csv-mapper/contracts';
import { apiJson } from '../../../lib/api-client';

/** PATCH /api/upload/:id: read the stored file again with other choices (nothing is uploaded again). */
export function updateUpload(id: string, choices: UpdateUploadRequest): Promise<UploadRecord> {
  return apiJson<UploadRecord>('PATCH', `/api/upload/${encodeURIComponent(id)}`, choices);
}
