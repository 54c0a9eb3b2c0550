import { limitsOf, type PlanLimits } from '@csv-mapper/domain';
import { AppError } from './app-error';

type PlanFeature = { [K in keyof PlanLimits]: PlanLimits[K] extends boolean ? K : never }[keyof PlanLimits];

/**
 * The plan's limits, or a 403 PLAN_FEATURE_UNAVAILABLE with `message` when the plan lacks `feature`
 * (bulk uploads, direct uploads to storage, webhooks: each says which plans have it and what to do).
 */
export function requirePlanFeature(
  plan: string | null | undefined,
  feature: PlanFeature,
  message: string,
): PlanLimits {
  const limits = limitsOf(plan);
  if (!limits[feature]) throw new AppError(403, 'PLAN_FEATURE_UNAVAILABLE', message);
  return limits;
}
