import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { InjectQueue } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import type { Response } from 'express';
import { Repository } from 'typeorm';
import type { ProfileView } from '@csv-mapper/contracts';
import { QuotaLedger, SavedMappingEntity, UserEntity } from '@csv-mapper/db';
import { limitsOf, planOf, UNLIMITED } from '@csv-mapper/domain';
import { BatchStore, BlobStore, QUEUES, UserJobIndex } from '@csv-mapper/queue';
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
    private readonly store: BlobStore,
    private readonly jobs: UserJobIndex,
    private readonly batches: BatchStore,
    private readonly subscriptions: SubscriptionCanceller,
    private readonly quota: QuotaLedger,
    private readonly teams: TeamsService,
    @InjectQueue(QUEUES.csvJobs) private readonly csvJobs: Queue,
  ) {}

  /** The caller as AuthGuard read them from the database for this request (no second read). */
  sessionUser(user: AuthUser): SessionUserView {
    return toSessionUser(user);
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
    const jobIds = await this.jobs.list(userId, 1000);
    for (const jobId of jobIds) await this.jobs.requestCancel(jobId);
    await this.users.delete({ id: userId });
    await this.sessions.revokeAll(userId);
    await this.auth.clearLoginFailures(userId);
    await this.jobs.removeUser(userId);
    await this.batches.removeUser(userId);
    const blobs = await this.store.deleteAllOf(userId);
    const running = await this.removeJobs(jobIds);
    this.logger.log(`Deleted account ${userId} (${blobs} stored files removed)`);
    if (running.length) void this.removeJobsWhenStopped(running);
  }

  /**
   * Removes the account's jobs from the queue (their payloads name files and carry mappings; they used to
   * stay 7 days). A running one cannot be removed while its worker holds it: it is returned, cancelled.
   */
  private async removeJobs(jobIds: string[]): Promise<string[]> {
    const running: string[] = [];
    for (const jobId of jobIds) {
      const job = await this.csvJobs.getJob(jobId);
      if (!job) continue;
      if (await job.isActive()) running.push(jobId);
      else await job.remove().catch(() => running.push(jobId));
    }
    return running;
  }

  /** The cancelled jobs stop at their next progress check: removed then (checked for a minute). */
  private async removeJobsWhenStopped(jobIds: string[]): Promise<void> {
    let left = jobIds;
    for (let i = 0; i < 60 && left.length; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      left = await this.removeJobs(left).catch(() => left);
    }
    if (left.length) this.logger.warn(`Jobs of a deleted account still running: ${left.join(', ')}`);
  }

  private async get(userId: string): Promise<UserEntity> {
    const user = await this.users.findOne({ where: { id: userId } });
    if (!user) throw new AppError(401, 'UNAUTHORIZED', 'Unauthorized');
    return user;
  }
}
