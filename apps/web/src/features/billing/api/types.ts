import type { PlanKey, PlanLimits } from '@csv-mapper/domain';

/** One entry of GET /api/plans (spec §3 "Plan catalogue entry"); -1 means unlimited. */
export interface PlanCatalogueEntry {
  key: PlanKey;
  name: string;
  /** Display text, e.g. '£12/month' or 'Custom'. */
  price: string;
  /** Whole pounds per month; null = custom (contact sales). */
  priceGbp: number | null;
  features: string[];
  restrictions?: string[];
  maxFileSize: number;
  maxSavedMappings: number;
  limits: PlanLimits;
}

export type PlanCatalogue = Record<PlanKey, PlanCatalogueEntry>;

export type PaidPlanKey = 'pro' | 'business';

/** The subscription part of GET /api/user/profile. Dates are epoch seconds. */
export interface BillingSubscription {
  id: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  cancelAt: number | null;
  currentPeriodEnd: number | null;
  pendingPlan?: PaidPlanKey | null;
  pendingPlanAt?: number | null;
}

/** What the billing screens read from the profile (the page passes the profile in). */
export interface BillingProfile {
  plan: string;
  email: string;
  subscription: BillingSubscription | null;
}

/** POST /api/user/upgrade-plan: either done/scheduled, or a checkout to go through. */
export interface UpgradePlanResult {
  success: boolean;
  message?: string;
  url?: string;
  /** Epoch seconds: when a scheduled pro ↔ business change takes effect. */
  effectiveAt?: number;
}

/** POST /api/create-checkout-session (spec §7: success, message or url). */
export interface CheckoutResult {
  url?: string;
  success?: boolean;
  message?: string;
}

export interface SyncResult {
  message: string;
  plan: string;
  subscription: BillingSubscription | null;
}

export interface SimulatedSession {
  id: string;
  plan: PaidPlanKey;
  planName: string;
  price: string;
  email: string;
  status: 'open' | 'complete' | 'expired';
}

export type CheckoutOutcome = 'pay' | 'decline' | 'cancel';
