import type { PresignedUploadView, UploadRecord, UploadType } from '@csv-mapper/contracts';
import { ApiError, apiJson, hasErrorCode } from '../../../lib/api-client';

// Enterprise direct upload: ask the api for a presigned PUT, send the file straight to object storage with
// XMLHttpRequest (the only browser API that reports bytes sent), then ask the api to check it.

export interface UploadProgress {
  sent: number;
  total: number;
}

/** The user cancelled the upload (nothing is kept). */
export class UploadCancelledError extends Error {
  constructor() {
    super('Upload cancelled');
    this.name = 'UploadCancelledError';
  }
}

/**
 * Resolves with the upload record, or null when the server keeps files in memory (direct uploads off):
 * the caller then sends the file the usual way.
 */
export async function directUpload(
  file: File,
  type: UploadType,
  onProgress: (p: UploadProgress) => void,
  signal: AbortSignal,
): Promise<UploadRecord | null> {
  let target: PresignedUploadView;
  try {
    target = await apiJson<PresignedUploadView>('POST', '/api/upload/presign', {
      kind: type,
      fileName: file.name,
      size: file.size,
    });
  } catch (err) {
    if (hasErrorCode(err, 'DIRECT_UPLOAD_UNAVAILABLE')) return null;
    throw err;
  }
  if (signal.aborted) throw new UploadCancelledError();
  await put(file, target, onProgress, signal);
  return apiJson<UploadRecord>('POST', `/api/upload/${encodeURIComponent(target.uploadId)}/complete`);
}

function put(
  file: File,
  target: PresignedUploadView,
  onProgress: (p: UploadProgress) => void,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(target.method, target.url);
    for (const [name, value] of Object.entries(target.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) =>
      onProgress({ sent: e.loaded, total: e.lengthComputable ? e.total : file.size });
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve();
      else reject(new ApiError(xhr.status, 'Storage refused the file. Try again.', xhr.statusText));
    };
    xhr.onerror = () =>
      reject(new ApiError(0, 'The upload to storage failed. Check your connection and try again.'));
    xhr.onabort = () => reject(new UploadCancelledError());
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    onProgress({ sent: 0, total: file.size });
    xhr.send(file);
  });
}
