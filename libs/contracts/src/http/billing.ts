import { Type } from 'class-transformer';
import { IsIn, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
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
