import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type {
  CheckoutResponse,
  SubscriptionView,
  SyncSubscriptionResponse,
  UpgradePlanResponse,
} from '@csv-mapper/contracts';
import { UserEntity } from '@csv-mapper/db';
import { PLAN_KEYS, PLANS, planOf, type PlanKey } from '@csv-mapper/domain';
import { AppError } from '../common/app-error';
import { ApiConfig } from '../config/api.config';
import {
  BILLING_PROVIDER,
  isPaidPlan,
  LIVE_STATUSES,
  type BillingProvider,
  type PaidPlan,
} from './billing-provider';
import { PlanStateService } from './plan-state.service';

/** Spec §3 "Plan catalogue entry", keyed by plan key, straight from libs/domain. */
export function planCatalogue() {
  return Object.fromEntries(
    PLAN_KEYS.map((key) => {
      const p = PLANS[key];
      return [
        key,
        {
          key,
          name: p.name,
          price: p.price,
          priceGbp: p.priceGbp,
          features: p.features,
          ...(p.restrictions ? { restrictions: p.restrictions } : {}),
          maxFileSize: p.limits.maxFileSize,
          maxSavedMappings: p.limits.maxSavedMappings,
          limits: p.limits,
        },
      ];
    }),
  );
}

const dateGb = (d: Date | null) =>
  d
    ? d.toLocaleDateString('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' })
    : 'the end of the billing period';

export type { SubscriptionView } from '@csv-mapper/contracts';

export function subscriptionView(user: UserEntity): SubscriptionView | null {
  if (!user.subscriptionId) return null;
  const s = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);
  return {
    id: user.subscriptionId,
    status: user.subscriptionStatus ?? 'unknown',
    cancelAtPeriodEnd: user.subscriptionCancelAtPeriodEnd,
    cancelAt: s(user.subscriptionCancelAt),
    currentPeriodEnd: s(user.subscriptionCurrentPeriodEnd),
    pendingPlan: isPaidPlan(user.pendingPlan) ? user.pendingPlan : null,
    pendingPlanAt: s(user.pendingPlanAt),
  };
}

/** The plan actions of spec §4 and the calls of spec §7. */
@Injectable()
export class BillingService {
  constructor(
    @Inject(BILLING_PROVIDER) private readonly provider: BillingProvider,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly planState: PlanStateService,
    private readonly config: ApiConfig,
  ) {}

  async checkout(userId: string, plan: unknown): Promise<CheckoutResponse> {
    const user = await this.user(userId);
    const target = this.paidPlan(plan);
    if (this.hasLiveSubscription(user)) {
      throw new AppError(
        409,
        'ALREADY_SUBSCRIBED',
        `You already have a ${planOf(user.plan).name} subscription. Change plans from your profile instead.`,
      );
    }
    return this.provider.createCheckout(user, target);
  }

  async upgradePlan(userId: string, plan: unknown): Promise<UpgradePlanResponse> {
    const user = await this.user(userId);
    if (typeof plan !== 'string' || !(PLAN_KEYS as readonly string[]).includes(plan)) {
      throw new AppError(400, 'INVALID_PLAN', 'Choose one of the plans: Free, Pro or Business.');
    }
    const target = plan as PlanKey;
    if (target === 'enterprise' || user.plan === 'enterprise') {
      throw new AppError(
        400,
        'CONTACT_SALES',
        `Enterprise plans are arranged with our sales team: write to ${this.config.salesEmail}.`,
      );
    }
    if (target === user.plan && !(target !== 'free' && !this.hasLiveSubscription(user))) {
      throw new AppError(409, 'SAME_PLAN', `You are already on the ${planOf(target).name} plan.`);
    }
    if (target === 'free') {
      if (!this.hasLiveSubscription(user)) {
        await this.planState.clear(user, true);
        return { success: true, message: 'You are now on the Free plan.' };
      }
      const sub = await this.provider.setCancelAtPeriodEnd(user.subscriptionId as string, true);
      const updated = await this.planState.apply(sub);
      return {
        success: true,
        message: `Your ${planOf(user.plan).name} subscription ends on ${dateGb(updated?.subscriptionCancelAt ?? null)}; you move to Free then.`,
      };
    }
    if (!this.hasLiveSubscription(user)) {
      const { url } = await this.provider.createCheckout(user, target as PaidPlan);
      return { success: false, url };
    }
    const sub = await this.provider.schedulePlanChange(user.subscriptionId as string, target as PaidPlan);
    const updated = await this.planState.apply(sub);
    return {
      success: true,
      message: `Your plan changes to ${planOf(target).name} on ${dateGb(updated?.subscriptionCurrentPeriodEnd ?? null)}, at your next billing date.`,
      effectiveAt: sub.currentPeriodEnd ?? undefined,
    };
  }

  async cancel(userId: string): Promise<{ message: string }> {
    const user = await this.user(userId);
    if (!this.hasLiveSubscription(user)) {
      throw new AppError(409, 'NO_SUBSCRIPTION', 'You have no active subscription to cancel.');
    }
    if (user.subscriptionCancelAtPeriodEnd) {
      throw new AppError(
        409,
        'ALREADY_CANCELLING',
        'Your subscription is already set to end at the close of this billing period.',
      );
    }
    const updated = await this.planState.apply(
      await this.provider.setCancelAtPeriodEnd(user.subscriptionId as string, true),
    );
    return {
      message: `Your subscription has been cancelled. You keep your ${planOf(user.plan).name} features until ${dateGb(updated?.subscriptionCancelAt ?? null)}.`,
    };
  }

  async reactivate(userId: string): Promise<{ message: string }> {
    const user = await this.user(userId);
    if (!this.hasLiveSubscription(user) || !user.subscriptionCancelAtPeriodEnd) {
      throw new AppError(409, 'NOT_CANCELLING', 'There is no cancelled subscription to reactivate.');
    }
    await this.planState.apply(
      await this.provider.setCancelAtPeriodEnd(user.subscriptionId as string, false),
    );
    return {
      message: `Your ${planOf(user.plan).name} subscription has been reactivated and renews as usual.`,
    };
  }

  async sync(userId: string): Promise<SyncSubscriptionResponse> {
    let user = await this.user(userId);
    if (user.subscriptionId) {
      const sub = await this.provider.retrieveSubscription(user.subscriptionId);
      user = sub ? ((await this.planState.apply(sub)) ?? user) : await this.planState.clear(user, false);
    }
    return {
      message: user.subscriptionId ? 'Subscription status updated.' : 'You have no subscription.',
      plan: user.plan,
      subscription: subscriptionView(user),
    };
  }

  /** Account deletion: the subscription ends now, not at the period end. */
  async cancelForDeletion(user: UserEntity): Promise<void> {
    if (user.subscriptionId && LIVE_STATUSES.has(user.subscriptionStatus ?? '')) {
      await this.provider.cancelNow(user.subscriptionId);
    }
  }

  hasLiveSubscription(user: UserEntity): boolean {
    return !!user.subscriptionId && LIVE_STATUSES.has(user.subscriptionStatus ?? '');
  }

  private paidPlan(plan: unknown): PaidPlan {
    if (isPaidPlan(plan)) return plan;
    if (plan === 'enterprise') {
      throw new AppError(
        400,
        'CONTACT_SALES',
        `Enterprise plans are arranged with our sales team: write to ${this.config.salesEmail}.`,
      );
    }
    throw new AppError(400, 'INVALID_PLAN', 'Choose the Pro or Business plan.');
  }

  private async user(id: string): Promise<UserEntity> {
    const user = await this.users.findOne({ where: { id } });
    if (!user) throw new AppError(401, 'UNAUTHORIZED', 'Unauthorized');
    return user;
  }
}
