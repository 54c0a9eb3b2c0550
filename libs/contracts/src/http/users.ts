import type { PlanLimits } from '@csv-mapper/domain';
import type { SubscriptionView } from './billing';

/** The signed-in user as GET /api/user, POST /api/login and POST /api/register answer it. */
export class SessionUserView {
  id: string;
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
}

/** GET /api/user/profile (spec §3 "Profile"). Every -1 means unlimited. */
export class ProfileView {
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  plan: string;
  planExpiresAt: string | null;
  subscription: SubscriptionView | null;
  usage: { savedMappings: number; monthlyRowsUsed: number; maxFileSize: number };
  monthlyUsage: { used: number; limit: number; remaining: number };
  planLimits: PlanLimits;
  /**
   * The caller's team. `plan`, usage and limits above are the team's (its account holder's plan); a member
   * sees no subscription (billing stays with the account holder).
   */
  team: { id: string; role: 'owner' | 'member'; readOnly: boolean; members: number };
}
