import { ApiExcludeController } from '@nestjs/swagger';
import { AdvanceClockRequest, CompleteCheckoutRequest, SubscriptionRequest } from '@csv-mapper/contracts';
import { Body, Controller, Get, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { UserEntity } from '@csv-mapper/db';
import { AuthGuard } from '../auth/auth.guard';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { AppError } from '../common/app-error';
import { ApiConfig } from '../config/api.config';
import { BILLING_PROVIDER, type BillingProvider } from './billing-provider';
import { PlanStateService } from './plan-state.service';
import { SimulatedBillingProvider } from './simulated-billing.provider';
import { SimulatedOnlyGuard } from './simulated-only.guard';

/**
 * The simulated provider's checkout page calls and the spec's /api/test/* calls. They exist only while
 * the simulated provider runs and never in production: otherwise every route here answers 404.
 */
@Controller()
@ApiExcludeController()
@UseGuards(SimulatedOnlyGuard, AuthGuard)
export class SimulatedBillingController {
  constructor(
    @Inject(BILLING_PROVIDER) private readonly provider: BillingProvider,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly planState: PlanStateService,
    private readonly config: ApiConfig,
  ) {}

  private sim(): SimulatedBillingProvider {
    if (this.config.isProduction || !(this.provider instanceof SimulatedBillingProvider)) {
      throw new AppError(404, 'NOT_FOUND', 'Not found.');
    }
    return this.provider;
  }

  private async user(id: string): Promise<UserEntity> {
    const u = await this.users.findOne({ where: { id } });
    if (!u) throw new AppError(401, 'UNAUTHORIZED', 'Unauthorized');
    return u;
  }

  @Get('billing/simulated/sessions/:id')
  async session(@CurrentUser() me: AuthUser, @Param('id') id: string) {
    return this.sim().session(id, await this.user(me.id));
  }

  @Post('billing/simulated/sessions/:id/complete')
  @HttpCode(200)
  async complete(
    @CurrentUser() me: AuthUser,
    @Param('id') id: string,
    @Body() body: CompleteCheckoutRequest,
  ) {
    const sim = this.sim();
    return { redirectUrl: await sim.completeSession(id, await this.user(me.id), body.outcome) };
  }

  @Post('test/simulate-payment-success')
  @HttpCode(200)
  async simulatePayment(@CurrentUser() me: AuthUser, @Body() body: SubscriptionRequest) {
    await this.sim().payIncomplete(body.subscriptionId, me.id);
    return { message: 'Payment succeeded: your subscription is active.' };
  }

  @Post('test/activate-subscription')
  @HttpCode(200)
  async activate(@CurrentUser() me: AuthUser, @Body() body: SubscriptionRequest) {
    await this.sim().payIncomplete(body.subscriptionId, me.id);
    const user = await this.user(me.id);
    return {
      user: { plan: user.plan },
      message: `Subscription activated: you are on the ${user.plan} plan.`,
    };
  }

  @Post('test/reset-subscription')
  @HttpCode(200)
  async reset(@CurrentUser() me: AuthUser) {
    const sim = this.sim();
    const user = await this.user(me.id);
    if (
      !user.subscriptionId ||
      !['incomplete', 'incomplete_expired'].includes(user.subscriptionStatus ?? '')
    ) {
      throw new AppError(409, 'NOTHING_TO_RESET', 'There is no unpaid subscription to reset.');
    }
    await sim.discard(user.subscriptionId, user.id);
    await this.planState.clear(user, false);
    return { message: 'The unpaid subscription was removed. You can start a new checkout.' };
  }

  /** Moves the simulated clock forward (renewals, period ends, expiries). Test and development only. */
  @Post('test/advance-clock')
  @HttpCode(200)
  async advance(@Body() body: AdvanceClockRequest) {
    return { now: await this.sim().advance(body.days) };
  }
}
