import type { PlanKey } from '@csv-mapper/domain';

/** The caller of an authenticated request, as AuthGuard puts it on `req.user`. */
export interface AuthUser {
  id: string;
  username: string;
  email: string;
  /** The team's plan: the account holder's (for the account holder, their own). */
  plan: PlanKey;
  /** How the caller proved who they are: the browser session cookie or a Bearer API key. */
  via: 'session' | 'apiKey';
  /** The team the caller works in now; its data is what team-scoped routes read and write. */
  teamId: string;
  teamRole: 'owner' | 'member';
  /** A member beyond the plan's seats (after a downgrade): may read the team's data, not change it. */
  teamReadOnly: boolean;
}
