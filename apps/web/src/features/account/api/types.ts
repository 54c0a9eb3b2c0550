import type { PlanLimits } from '@csv-mapper/domain';

export interface Subscription {
  id: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  /** Epoch seconds. */
  cancelAt: number | null;
  /** Epoch seconds. */
  currentPeriodEnd: number | null;
  /** A pro ↔ business change scheduled for the next billing cycle. */
  pendingPlan?: 'pro' | 'business' | null;
  /** Epoch seconds. */
  pendingPlanAt?: number | null;
}

/** GET /api/user/profile (spec §3 "Profile"); every -1 means unlimited. */
export interface Profile {
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  plan: string;
  planExpiresAt: string | null;
  subscription: Subscription | null;
  usage: { savedMappings: number; monthlyRowsUsed: number; maxFileSize: number };
  monthlyUsage: { used: number; limit: number; remaining: number };
  planLimits: PlanLimits;
}
