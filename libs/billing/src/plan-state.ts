import type { Repository } from 'typeorm';
import type { UserEntity } from '@csv-mapper/db';
import { limitsOf, type PlanKey } from '@csv-mapper/domain';
import { ENDED_STATUSES, LIVE_STATUSES, type ProviderSubscription } from './billing-provider';

const toDate = (s: number | null): Date | null => (s === null ? null : new Date(s * 1000));

/** Where PlanState reports a subscription it could not place (the Nest logger in the apps). */
export interface PlanStateLog {
  warn(message: string): void;
}

/**
 * The one place that writes a user's plan and subscription fields, so they never disagree: the plan,
 * when it started and ends, the provider's ids and status, the period and cancellation, a scheduled
 * change, and the limits that follow from the plan. Saved mappings beyond the plan's allowance are locked
 * by the mappings service from the plan alone, so a downgrade locks them with no further write.
 */
export class PlanState {
  constructor(
    protected readonly users: Repository<UserEntity>,
    private readonly logger: PlanStateLog = console,
  ) {}

  /** Brings the user who owns `sub` in line with it. Returns the user, or null when none matches. */
  async apply(sub: ProviderSubscription, now = new Date()): Promise<UserEntity | null> {
    const user = await this.ownerOf(sub);
    if (!user) {
      this.logger.warn(`subscription ${sub.id}: no user for customer ${sub.customerId}`);
      return null;
    }
    // An old subscription's late event must not undo a newer one: a subscription that is not live never
    // replaces another one, except an unpaid (incomplete) one replacing a subscription that is not live.
    const userLive = !!user.subscriptionId && LIVE_STATUSES.has(user.subscriptionStatus ?? '');
    if (
      user.subscriptionId &&
      user.subscriptionId !== sub.id &&
      !LIVE_STATUSES.has(sub.status) &&
      (userLive || sub.status !== 'incomplete')
    ) {
      return user;
    }
    user.billingCustomerId = sub.customerId;
    if (LIVE_STATUSES.has(sub.status)) {
      this.setPlan(user, sub.plan ?? (user.plan as PlanKey), now);
      user.subscriptionId = sub.id;
      user.subscriptionStatus = sub.status;
      user.subscriptionCancelAtPeriodEnd = sub.cancelAtPeriodEnd;
      user.subscriptionCancelAt = sub.cancelAtPeriodEnd ? toDate(sub.cancelAt ?? sub.currentPeriodEnd) : null;
      user.subscriptionCurrentPeriodEnd = toDate(sub.currentPeriodEnd);
      user.planExpiresAt = sub.cancelAtPeriodEnd ? toDate(sub.cancelAt ?? sub.currentPeriodEnd) : null;
      user.pendingPlan = sub.pendingPlan && sub.pendingPlan !== sub.plan ? sub.pendingPlan : null;
      user.pendingPlanAt = user.pendingPlan ? toDate(sub.currentPeriodEnd) : null;
    } else if (ENDED_STATUSES.has(sub.status)) {
      if (user.plan !== 'free') user.planExpiresAt = now;
      this.setPlan(user, 'free', now);
      // A failed first payment stays visible ('Subscription Payment Failed'); an ended one is gone.
      user.subscriptionId = sub.status === 'incomplete_expired' ? sub.id : null;
      user.subscriptionStatus = sub.status === 'incomplete_expired' ? sub.status : null;
      this.clearPeriod(user);
    } else {
      // incomplete (waiting for the first payment) and anything new: recorded, no features granted.
      user.subscriptionId = sub.id;
      user.subscriptionStatus = sub.status;
      this.clearPeriod(user);
    }
    return this.users.save(user);
  }

  /** Drops the subscription from the user (test reset, or a paid plan without one going to Free). */
  async clear(user: UserEntity, toFree: boolean, now = new Date()): Promise<UserEntity> {
    if (toFree) this.setPlan(user, 'free', now);
    user.subscriptionId = null;
    user.subscriptionStatus = null;
    this.clearPeriod(user);
    return this.users.save(user);
  }

  private setPlan(user: UserEntity, plan: PlanKey, now: Date): void {
    if (user.plan !== plan) {
      user.plan = plan;
      user.planStartedAt = now;
      if (plan !== 'free') user.planExpiresAt = null;
    }
    const limits = limitsOf(plan);
    user.maxFileSize = limits.maxFileSize;
    user.maxSavedMappings = limits.maxSavedMappings;
  }

  private clearPeriod(user: UserEntity): void {
    user.subscriptionCancelAtPeriodEnd = false;
    user.subscriptionCancelAt = null;
    user.subscriptionCurrentPeriodEnd = null;
    user.pendingPlan = null;
    user.pendingPlanAt = null;
  }

  private async ownerOf(sub: ProviderSubscription): Promise<UserEntity | null> {
    if (sub.userId && /^[0-9a-f-]{36}$/i.test(sub.userId)) {
      const byId = await this.users.findOne({ where: { id: sub.userId } });
      if (byId) return byId;
    }
    return this.users.findOne({ where: { billingCustomerId: sub.customerId } });
  }
}
