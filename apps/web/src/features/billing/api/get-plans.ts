import type { PlanCatalogue } from '@csv-mapper/contracts';
import useSWR from 'swr';
import { getQueryFn } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';

/** GET /api/plans: the plan catalogue (public). */
export const getPlans = getQueryFn<PlanCatalogue>({ on401: 'throw' });

const PLANS_FRESH_MS = 5 * 60 * 1000;

/** The plan catalogue, fresh for 5 minutes (spec §7/§9). Prices and features are only ever read here. */
export function usePlans() {
  return useSWR<PlanCatalogue | null>(swrKeys.plans, getPlans, {
    revalidateOnMount: true,
    revalidateIfStale: true,
    dedupingInterval: PLANS_FRESH_MS,
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
}
