import type { UploadType, UploadedFile } from './types';

/**
 * POST /api/upload as multipart form data (spec §7). Failures throw the spec §8 error text
 * "<status>: <body>", like every other call, so the caller can recognise 401s and plan-limit messages.
 */
export async function uploadFile(file: File, type: UploadType): Promise<UploadedFile> {
  const form = new FormData();
  form.append('type', type);
  form.append('file', file, file.name);
  const res = await fetch('/api/upload', {
    method: 'POST',
    body: form,
    credentials: 'include',
    headers: { 'X-Requested-With': 'csv-mapper', Accept: 'application/json' },
  });
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw new Error(`${res.status}: ${text || res.statusText}`);
  }
  return (await res.json()) as UploadedFile;
}

/** DELETE /api/upload/:id; the file would expire anyway, so failures are ignored. */
export async function deleteUpload(id: string): Promise<void> {
  await fetch(`/api/upload/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    credentials: 'include',
    headers: { 'X-Requested-With': 'csv-mapper' },
  }).catch(() => undefined);
}
