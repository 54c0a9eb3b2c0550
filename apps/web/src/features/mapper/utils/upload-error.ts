import { formatPlanFileSize } from '@csv-mapper/domain';
import { ApiError, errorDescription, isUnauthorizedError } from '../../../lib/api-client';

/** What the mapper does about a failed upload (spec §8), decided by the answer's code. */
export type UploadFailure =
  | { kind: 'unauthorized' }
  /** The File Too Large dialog, with the plan's limit as the UI writes sizes ('1MB'). */
  | { kind: 'tooLarge'; limit: string }
  | { kind: 'toast'; description: string };

/**
 * FILE_TOO_LARGE against the plan opens the dialog (an upgrade helps); against the server's own ceiling
 * (details.limit names the setting) it is a toast with the api's message, since no plan would help.
 * `planLimit` is shown when the answer does not say the limit.
 */
export function uploadFailure(err: unknown, planLimit: string): UploadFailure {
  if (isUnauthorizedError(err)) return { kind: 'unauthorized' };
  if (err instanceof ApiError && err.code === 'FILE_TOO_LARGE') {
    const details = (err.body?.details ?? {}) as { maxFileSize?: unknown; limit?: unknown };
    if (details.limit === undefined) {
      const max = details.maxFileSize;
      return { kind: 'tooLarge', limit: typeof max === 'number' ? formatPlanFileSize(max) : planLimit };
    }
  }
  return { kind: 'toast', description: errorDescription(err, 'Failed to upload file') };
}
