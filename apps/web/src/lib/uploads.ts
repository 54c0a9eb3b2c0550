// Uploads are shared: the mapper's template and data files, and the extra data files of a bulk upload.
import type { UploadRecord, UploadType } from '@csv-mapper/contracts';
import { apiForm } from './api-client';

/**
 * POST /api/upload as multipart form data (spec §7). Failures throw an ApiError like every other call, so
 * the caller can recognise 401s and plan limits by code.
 */
export function uploadFile(file: File, type: UploadType): Promise<UploadRecord> {
  const form = new FormData();
  form.append('type', type);
  form.append('file', file, file.name);
  return apiForm<UploadRecord>('/api/upload', form);
}

/** DELETE /api/upload/:id; the file would expire anyway, so failures are ignored. */
export async function deleteUpload(id: string): Promise<void> {
  await fetch(`/api/upload/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    credentials: 'include',
    headers: { 'X-Requested-With': 'csv-mapper' },
  }).catch(() => undefined);
}
