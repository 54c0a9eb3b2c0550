import { useCallback } from 'react';
import { showToast } from '../../../components/toaster';
import { errorDescription, isUnauthorizedError } from '../../../lib/api-client';
import { useUnauthorizedRedirect } from './use-unauthorized-redirect';

/** Reports a failed api call: `title` is the toast's, `fallback` its text when the api sent no message. */
export type ApiErrorReporter = (err: unknown, title: string, fallback: string) => void;

/**
 * The mapper's one way to report a failed api call (spec §8): an ended session signs in again (toast
 * 'Unauthorized', then /api/login); anything else is an error toast with the api's message or the fallback.
 */
export function useApiError(): ApiErrorReporter {
  const relogin = useUnauthorizedRedirect();
  return useCallback(
    (err, title, fallback) => {
      if (isUnauthorizedError(err)) return relogin();
      showToast({ title, description: errorDescription(err, fallback), type: 'error' });
    },
    [relogin],
  );
}
