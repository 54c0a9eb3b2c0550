import { useCallback } from 'react';
import { showToast } from '../../../components/toaster';

export const RELOGIN_DELAY_MS = 500;

/** Spec §4: logged out in the mapper → toast 'Unauthorized', then /api/login after 500 ms. */
export function useUnauthorizedRedirect(): () => void {
  return useCallback(() => {
    showToast({
      title: 'Unauthorized',
      description: 'You are logged out. Logging in again...',
      type: 'error',
    });
    window.setTimeout(() => {
      window.location.href = '/api/login';
    }, RELOGIN_DELAY_MS);
  }, []);
}
