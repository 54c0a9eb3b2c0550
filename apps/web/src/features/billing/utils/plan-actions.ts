import type { PlanKey } from '@csv-mapper/domain';
import type { SubscriptionView } from '@csv-mapper/contracts';

// Spec §4 "Profile plan actions": which button each plan card of the grid offers the current user.

export type PlanAction =
  | { kind: 'current' }
  /** pro/business through the Confirm Plan Change dialog. */
  | { kind: 'confirm'; label: string }
  /** to free, requested directly. */
  | { kind: 'direct'; label: string }
  | { kind: 'contact' }
  /** Nothing to do now: the change is already scheduled. */
  | { kind: 'scheduled'; label: string };

const RANK: Record<PlanKey, number> = { free: 0, pro: 1, business: 2, enterprise: 3 };

function isPlanKeyLike(plan: string): plan is PlanKey {
  return plan in RANK;
}

export function planActionFor(
  current: string,
  target: PlanKey,
  subscription: SubscriptionView | null,
): PlanAction {
  const from: PlanKey = isPlanKeyLike(current) ? current : 'free';
  if (from === target) return { kind: 'current' };
  if (target === 'enterprise' || from === 'enterprise') return { kind: 'contact' };
  const verb = RANK[target] > RANK[from] ? 'Upgrade' : 'Downgrade';
  const name = target === 'free' ? 'Free' : target === 'pro' ? 'Pro' : 'Business';
  if (target === 'free') {
    // A paid plan ending at the period end is already on its way to Free.
    if (subscription?.cancelAtPeriodEnd) return { kind: 'scheduled', label: 'Downgrade scheduled' };
    return { kind: 'direct', label: `${verb} to ${name}` };
  }
  if (subscription?.pendingPlan === target) return { kind: 'scheduled', label: 'Change scheduled' };
  return { kind: 'confirm', label: `${verb} to ${name}` };
}
