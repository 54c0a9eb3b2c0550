import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Response } from 'express';
import { Repository } from 'typeorm';
import type { ProfileView } from '@csv-mapper/contracts';
import { QuotaLedger, SavedMappingEntity, UserEntity } from '@csv-mapper/db';
import { limitsOf, planOf, UNLIMITED } from '@csv-mapper/domain';
import { BatchStore, EphemeralStore, UserJobIndex } from '@csv-mapper/queue';
import { AuthService, SessionUserView, toSessionUser } from '../auth/auth.service';
import { SessionsService } from '../auth/sessions.service';
import { AppError } from '../common/app-error';
import { subscriptionView } from '../billing/billing.service';
import { SubscriptionCanceller } from './subscription-canceller';

export type { ProfileView } from '@csv-mapper/contracts';

@Injectable()
export class UsersService {
  private readonly logger = new Logger('UsersService');

  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    @InjectRepository(SavedMappingEntity) private readonly mappings: Repository<SavedMappingEntity>,
    private readonly auth: AuthService,
    private readonly sessions: SessionsService,
    private readonly store: EphemeralStore,
    private readonly jobs: UserJobIndex,
    private readonly batches: BatchStore,
    private readonly subscriptions: SubscriptionCanceller,
    private readonly quota: QuotaLedger,
  ) {}

  async sessionUser(userId: string): Promise<SessionUserView> {
    return toSessionUser(await this.get(userId));
  }

  async profile(userId: string): Promise<ProfileView> {
    const user = await this.get(userId);
    const plan = planOf(user.plan);
    const limits = limitsOf(plan.key);
    const savedMappings = await this.mappings.count({ where: { userId } });
    const used = await this.quota.usedThisMonth(userId);
    const limit = limits.maxMonthlyRows;
    return {
      username: user.username,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      plan: plan.key,
      planExpiresAt: user.planExpiresAt ? user.planExpiresAt.toISOString() : null,
      subscription: subscriptionView(user),
      usage: { savedMappings, monthlyRowsUsed: used, maxFileSize: limits.maxFileSize },
      monthlyUsage: {
        used,
        limit,
        remaining: limit === UNLIMITED ? UNLIMITED : Math.max(0, limit - used),
      },
      planLimits: limits,
    };
  }

  /**
   * Deletes the account after checking its password: the subscription is cancelled first, then the
   * user row (its mappings, usage, tokens, API keys and webhook endpoints go with it by ON DELETE
   * CASCADE), every session, queued jobs and the files it left in Redis.
   */
  async deleteAccount(userId: string, password: string, res: Response): Promise<void> {
    if (!password.trim()) throw new AppError(400, 'PASSWORD_REQUIRED', 'Password Required');
    if (!(await this.auth.confirmPassword(userId, password, res))) {
      throw new AppError(403, 'INVALID_PASSWORD', 'The password is incorrect. Enter your current password.');
    }
    const user = await this.get(userId);
    await this.subscriptions.cancelFor(user);
    for (const jobId of await this.jobs.list(userId, 1000)) await this.jobs.requestCancel(jobId);
    await this.users.delete({ id: userId });
    await this.sessions.revokeAll(userId);
    await this.auth.clearLoginFailures(userId);
    await this.jobs.removeUser(userId);
    await this.batches.removeUser(userId);
    const blobs = await this.store.deleteAllOf(userId);
    this.logger.log(`Deleted account ${userId} (${blobs} stored files removed)`);
  }

  private async get(userId: string): Promise<UserEntity> {
    const user = await this.users.findOne({ where: { id: userId } });
    if (!user) throw new AppError(401, 'UNAUTHORIZED', 'Unauthorized');
    return user;
  }
}
