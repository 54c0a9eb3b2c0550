import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../../lib/api-client';
import { uploadFailure } from './upload-error';

// Spec §8 "Upload failed": File Too Large dialog for the plan's limit, otherwise a toast.

const apiError = (status: number, body: unknown) => new ApiError(status, JSON.stringify(body));

describe('upload failures', () => {
  it('open the File Too Large dialog with the plan limit the api names', () => {
    const err = apiError(413, {
      error: 'File size (2.00 MB) exceeds your plan limit of 1 MB',
      code: 'FILE_TOO_LARGE',
      details: { size: 2097152, maxFileSize: 1048576 },
    });
    expect(uploadFailure(err, '25MB')).toEqual({ kind: 'tooLarge', limit: '1MB' });
  });

  it('decide by code, not by wording: a reworded message still opens the dialog', () => {
    const err = apiError(413, { error: 'That file is bigger than Pro allows.', code: 'FILE_TOO_LARGE' });
    expect(uploadFailure(err, '25MB')).toEqual({ kind: 'tooLarge', limit: '25MB' });
  });

  it('show the server’s own ceiling as a toast with its message (no plan would help)', () => {
    const message =
      'File size (150.00 MB) exceeds the largest file this server can hold while it is mapped (100 MB).';
    const err = apiError(413, {
      error: message,
      code: 'FILE_TOO_LARGE',
      details: { size: 157286400, maxFileSize: 104857600, limit: 'MEMORY_STORE_MAX_FILE_MB' },
    });
    expect(uploadFailure(err, 'Unlimited')).toEqual({ kind: 'toast', description: message });
  });

  it('a message that merely mentions the plan limit, under another code, is a toast', () => {
    const err = apiError(400, { error: 'Rows exceed your plan limit of 50k', code: 'VALIDATION_FAILED' });
    expect(uploadFailure(err, '1MB')).toEqual({
      kind: 'toast',
      description: 'Rows exceed your plan limit of 50k',
    });
  });

  it('send a signed-out user to log in again', () => {
    expect(uploadFailure(apiError(401, { error: 'Unauthorized', code: 'UNAUTHORIZED' }), '1MB')).toEqual({
      kind: 'unauthorized',
    });
  });

  it('fall back to "Failed to upload file" for a 4xx without a message', () => {
    expect(uploadFailure(new ApiError(400, ''), '1MB')).toEqual({
      kind: 'toast',
      description: 'Failed to upload file',
    });
  });
});
