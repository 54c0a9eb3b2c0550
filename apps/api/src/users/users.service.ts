import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Response } from 'express';
import { Repository } from 'typeorm';
import type { ProfileView } from '@csv-mapper/contracts';
import { QuotaLedger, SavedMappingEntity, UserEntity } from '@csv-mapper/db';
import { limitsOf, planOf, UNLIMITED } from '@csv-mapper/domain';
import { BatchStore, EphemeralStore, UserJobIndex } from '@csv-mapper/queue';
import type { AuthUser } from '../auth/auth-user';
import { AuthService, SessionUserView, toSessionUser } from '../auth/auth.service';
import { TeamsService } from '../teams/teams.service';
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
    private readonly teams: TeamsService,
  ) {}

  async sessionUser(userId: string): Promise<SessionUserView> {
    return toSessionUser(await this.get(userId));
  }

  /** Plan, usage and limits are the caller's team's; the subscription only its account holder's. */
  async profile(caller: AuthUser): Promise<ProfileView> {
    const user = await this.get(caller.id);
    const plan = planOf(caller.plan);
    const limits = limitsOf(plan.key);
    const savedMappings = await this.mappings.count({ where: { teamId: caller.teamId } });
    const used = await this.quota.usedThisMonth(caller.teamId);
    const owner = caller.teamRole === 'owner';
    const limit = limits.maxMonthlyRows;
    return {
      username: user.username,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      plan: plan.key,
      planExpiresAt: owner && user.planExpiresAt ? user.planExpiresAt.toISOString() : null,
      subscription: owner ? subscriptionView(user) : null,
      usage: { savedMappings, monthlyRowsUsed: used, maxFileSize: limits.maxFileSize },
      monthlyUsage: {
        used,
        limit,
        remaining: limit === UNLIMITED ? UNLIMITED : Math.max(0, limit - used),
      },
      planLimits: limits,
      team: {
        id: caller.teamId,
        role: caller.teamRole,
        readOnly: caller.teamReadOnly,
        members: (await this.teams.memberCount(caller.teamId)) + 1,
      },
    };
  }

  /**
   * Deletes the account after checking its password: the subscription is cancelled first, then the
   * user row (its mappings, usage, tokens, API keys and webhook endpoints go with it by ON DELETE
   * CASCADE), every session, queued jobs and the files it left in Redis. Their own team goes with them: an
   * account holder's team (its data) after they confirmed how many members lose access, who then go back
   * to their own teams. A member's account goes alone; what they made for the team stays with the team.
   */
  async deleteAccount(
    caller: AuthUser,
    password: string,
    res: Response,
    confirmMembers?: number,
  ): Promise<void> {
    const userId = caller.id;
    if (!password.trim()) throw new AppError(400, 'PASSWORD_REQUIRED', 'Password Required');
    if (!(await this.auth.confirmPassword(userId, password, res))) {
      throw new AppError(403, 'INVALID_PASSWORD', 'The password is incorrect. Enter your current password.');
    }
    // Members are in the caller's own team only while the caller is its account holder.
    const members = caller.teamRole === 'owner' ? await this.teams.memberCount(userId) : 0;
    if (members > 0 && confirmMembers !== members) {
      throw new AppError(
        409,
        'TEAM_HAS_MEMBERS',
        `Deleting your account deletes your team's data, and ${members} member${members === 1 ? '' : 's'} ` +
          `will lose access to it. Confirm with confirmMembersLosingAccess: ${members} to go ahead.`,
        { membersLosingAccess: members },
      );
    }
    const user = await this.get(userId);
    await this.teams.disband(userId);
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
