import { useUser } from '../api/get-user';
import type { SessionUserView } from '@csv-mapper/contracts';

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

/**
 * The authentication state of spec §4. A failed check (api down, 5xx) counts as signed out: the app
 * cannot show private pages without a user, and public pages work either way.
 */
export function useAuth(): { status: AuthStatus; user: SessionUserView | null } {
  const { data, error, isLoading } = useUser();
  if (isLoading && data === undefined) return { status: 'loading', user: null };
  if (data) return { status: 'authenticated', user: data };
  if (data === undefined && !error) return { status: 'loading', user: null };
  return { status: 'unauthenticated', user: null };
}
