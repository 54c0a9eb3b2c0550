import type { PlanKey } from '@csv-mapper/domain';

/** The caller of an authenticated request, as AuthGuard puts it on `req.user`. */
export interface AuthUser {
  id: string;
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  plan: PlanKey;
  /** How the caller proved who they are: the browser session cookie or a Bearer API key. */
  via: 'session' | 'apiKey';
}
