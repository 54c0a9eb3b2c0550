import { Type } from 'class-transformer';
import { IsIn, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { PlanKey, PlanLimits } from '@csv-mapper/domain';
import { coded } from './common';

/** POST /api/create-checkout-session and POST /api/user/upgrade-plan. */
export class PlanRequest {
  @IsString(coded('INVALID_PLAN', 'Choose one of the plans: Free, Pro or Business.'))
  @MaxLength(50)
  plan: string;
}

/** Simulated provider only: how the checkout page ends. */
export class CompleteCheckoutRequest {
  @IsIn(
    ['pay', 'decline', 'cancel'],
    coded('INVALID_OUTCOME', 'outcome must be "pay", "decline" or "cancel".'),
  )
  outcome: 'pay' | 'decline' | 'cancel';
}

/** Simulated provider only: the unpaid subscription to settle. */
export class SubscriptionRequest {
  @IsOptional() @IsString() @MaxLength(100) subscriptionId: string = '';
}

const DAYS = coded('INVALID_DAYS', 'days must be a number between 0 and 3650.');

/** Simulated provider only: moves its clock forward. */
export class AdvanceClockRequest {
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false }, DAYS)
  @Min(0.000001, DAYS)
  @Max(3650, DAYS)
  days: number;
}

/** The plans a subscription can be on (Free has none; Enterprise is arranged with sales). */
export type PaidPlanKey = Exclude<PlanKey, 'free' | 'enterprise'>;

/** One entry of GET /api/plans (spec §3 "Plan catalogue entry"), straight from libs/domain; -1 = unlimited. */
export class PlanCatalogueEntry {
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

/** GET /api/plans, keyed by plan key. */
export type PlanCatalogue = Record<PlanKey, PlanCatalogueEntry>;

/** The subscription part of the profile. Dates are epoch seconds. */
export class SubscriptionView {
  id: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  cancelAt: number | null;
  currentPeriodEnd: number | null;
  /** A pro ↔ business change scheduled for the next billing cycle. */
  pendingPlan: PaidPlanKey | null;
  pendingPlanAt: number | null;
}

/** POST /api/create-checkout-session: the provider's checkout page to send the browser to. */
export class CheckoutResponse {
  url: string;
}

/** POST /api/user/upgrade-plan: done or scheduled (success), or a checkout `url` to go through. */
export class UpgradePlanResponse {
  success: boolean;
  message?: string;
  url?: string;
  /** Epoch seconds: when a scheduled pro ↔ business change takes effect. */
  effectiveAt?: number;
}

/** POST /api/sync-subscription-status. */
export class SyncSubscriptionResponse {
  message: string;
  plan: string;
  subscription: SubscriptionView | null;
}

/** Simulated provider only: GET /api/billing/simulated/sessions/:id. */
export interface SimulatedSessionView {
  id: string;
  plan: PaidPlanKey;
  planName: string;
  /** Display price ('£12/month') and the amount, for the page's 'Pay £12.00' button. */
  price: string;
  priceGbp: number;
  email: string;
  status: 'open' | 'complete' | 'expired';
}

/** Simulated provider only: POST …/sessions/:id/complete — where the provider sends the browser next. */
export interface RedirectResponse {
  redirectUrl: string;
}

/** Simulated provider only: POST /api/test/activate-subscription. */
export interface ActivateSubscriptionResponse {
  user: { plan: string };
  message: string;
}
