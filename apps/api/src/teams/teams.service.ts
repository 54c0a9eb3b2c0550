import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type {
  AcceptedInvitationView,
  TeamInvitationView,
  TeamMemberView,
  TeamUsageView,
  TeamView,
} from '@csv-mapper/contracts';
import { limitsOf, planOf, seatLimitMessage, UNLIMITED } from '@csv-mapper/domain';
import type { AuthUser } from '../auth/auth-user';
import { AppError } from '../common/app-error';
import { isUuid } from '../common/ids';
import { ApiConfig } from '../config/api.config';
import { MailService } from '../mail/mail.service';

// Teams: who is in the caller's team, invitations by email (single use, 7 days, only a hash stored),
// joining, leaving and removal. A user is in one team at a time; leaving or being removed takes them back
// to their own team (whose id is their id). Every request re-reads the membership, so a removal ends the
// member's access at once.

// Computed by Postgres from its own now(), the same clock as created_at, so the link lives exactly 7 days.
export const INVITATION_TTL = '7 days';

/** How many runs GET /api/team/usage lists. */
export const RECENT_RUNS = 50;

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

const invalidInvitation = () =>
  new AppError(
    400,
    'INVALID_INVITATION',
    'This invitation link is invalid, already used, revoked or expired. Ask the account holder for a new one.',
  );

@Injectable()
export class TeamsService {
  private readonly logger = new Logger('TeamsService');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly mail: MailService,
    private readonly config: ApiConfig,
  ) {}

  async view(user: AuthUser): Promise<TeamView> {
    const seats = limitsOf(user.plan).teamMembers;
    const members = await this.members(user.teamId, seats);
    const invitations = user.teamRole === 'owner' ? await this.pendingInvitations(user.teamId) : [];
    return {
      id: user.teamId,
      role: user.teamRole,
      readOnly: user.teamReadOnly,
      plan: user.plan,
      members,
      invitations,
      seatsUsed: members.length,
      seatsAllowed: seats,
    };
  }

  /**
   * The caller's team's most recent runs, newest first, with who ran each. Reads only the caller's team
   * (resolved by AuthGuard from the current membership), so no id from the request can reach another team.
   */
  async usage(user: AuthUser, limit = RECENT_RUNS): Promise<TeamUsageView> {
    const rows = (await this.db.query(
      `SELECT h.filename, h.rows_processed, h.file_size_bytes, h.job_id, h.processed_at,
              u.id AS user_id, u.username
         FROM usage_history h
         LEFT JOIN users u ON u.id = h.user_id
        WHERE h.team_id = $1
        ORDER BY h.processed_at DESC, h.id DESC
        LIMIT $2`,
      [user.teamId, limit],
    )) as Array<{
      filename: string;
      rows_processed: number;
      file_size_bytes: string;
      job_id: string | null;
      processed_at: Date;
      user_id: string | null;
      username: string | null;
    }>;
    return {
      runs: rows.map((r) => ({
        filename: r.filename,
        rowsProcessed: r.rows_processed,
        fileSizeBytes: Number(r.file_size_bytes),
        runBy: r.user_id && r.username ? { userId: r.user_id, name: r.username } : null,
        jobId: r.job_id,
        createdAt: r.processed_at.toISOString(),
      })),
    };
  }

  /** Members who will lose access when the account holder deletes their account. */
  async memberCount(teamId: string): Promise<number> {
    const [row] = (await this.db.query(
      `SELECT count(*) AS n FROM team_memberships WHERE team_id = $1 AND role = 'member'`,
      [teamId],
    )) as Array<{ n: string }>;
    return Number(row.n);
  }

  async invite(user: AuthUser, email: string): Promise<TeamInvitationView> {
    const token = randomBytes(32).toString('base64url');
    const invitation = await this.db.transaction(async (tx) => {
      await this.lockTeam(tx, user.teamId);
      const already = (await tx.query(
        `SELECT 1 FROM team_memberships m JOIN users u ON u.id = m.user_id
          WHERE m.team_id = $1 AND lower(u.email) = lower($2)`,
        [user.teamId, email],
      )) as unknown[];
      if (already.length > 0) {
        throw new AppError(409, 'ALREADY_IN_TEAM', `${email} is already in your team.`);
      }
      // A new invitation to the same address replaces the pending one (a resend).
      await tx.query(
        `UPDATE team_invitations SET revoked_at = now()
          WHERE team_id = $1 AND lower(email) = lower($2) AND accepted_at IS NULL AND revoked_at IS NULL`,
        [user.teamId, email],
      );
      const seats = limitsOf(user.plan).teamMembers;
      if (seats !== UNLIMITED) {
        const [row] = (await tx.query(
          `SELECT (SELECT count(*) FROM team_memberships WHERE team_id = $1)
                + (SELECT count(*) FROM team_invitations
                    WHERE team_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()) AS n`,
          [user.teamId],
        )) as Array<{ n: string }>;
        if (Number(row.n) >= seats) {
          throw new AppError(403, 'TEAM_SEAT_LIMIT', seatLimitMessage(user.plan, seats), {
            seatsAllowed: seats,
            seatsTaken: Number(row.n),
          });
        }
      }
      const [inserted] = (await tx.query(
        `INSERT INTO team_invitations (team_id, email, token_hash, invited_by, expires_at)
         VALUES ($1, $2, $3, $4, now() + $5::interval) RETURNING id, email, created_at, expires_at`,
        [user.teamId, email, hashInvitationToken(token), user.id, INVITATION_TTL],
      )) as Array<{ id: string; email: string; created_at: Date; expires_at: Date }>;
      return inserted;
    });
    const link = `${this.config.appUrl}/team/join?token=${encodeURIComponent(token)}`;
    // Not awaited: the answer must not wait for the mail server.
    void this.mail
      .send({
        to: email,
        subject: `${user.username} invited you to their team on CSV Mapper`,
        text:
          `Hello,\n\n${user.username} invited you to join their team on CSV Mapper, to share its saved ` +
          `mappings, jobs and monthly rows.\n\nOpen this link within 7 days to sign in (or create an ` +
          `account) and join:\n\n${link}\n\nThe link works once. If you did not expect this, ignore this email.\n`,
      })
      .catch((err: Error) => this.logger.error(`Invitation mail ${invitation.id} failed: ${err.message}`));
    return {
      id: invitation.id,
      email: invitation.email,
      createdAt: invitation.created_at.toISOString(),
      expiresAt: invitation.expires_at.toISOString(),
    };
  }

  async revokeInvitation(user: AuthUser, id: string): Promise<void> {
    const [, affected] = isUuid(id)
      ? ((await this.db.query(
          `UPDATE team_invitations SET revoked_at = now()
            WHERE id = $1 AND team_id = $2 AND accepted_at IS NULL AND revoked_at IS NULL`,
          [id, user.teamId],
        )) as [unknown, number])
      : [null, 0];
    if (!affected) {
      throw new AppError(
        404,
        'NOT_FOUND',
        'No such pending invitation. It may already be accepted or revoked.',
      );
    }
  }

  async accept(user: AuthUser, token: string): Promise<AcceptedInvitationView> {
    return this.db.transaction(async (tx) => {
      const [inv] = (await tx.query(
        `SELECT id, team_id FROM team_invitations
          WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
          FOR UPDATE`,
        [hashInvitationToken(token)],
      )) as Array<{ id: string; team_id: string }>;
      if (!inv) throw invalidInvitation();
      const [team] = await this.lockTeam(tx, inv.team_id);
      if (!team) throw invalidInvitation();
      if (user.teamId === inv.team_id) {
        throw new AppError(409, 'ALREADY_IN_TEAM', 'You are already in this team.');
      }
      // These refusals leave the link unused, so it works once the invitee has sorted them out.
      if (user.teamRole === 'member') {
        throw new AppError(
          409,
          'CANNOT_JOIN_TEAM',
          'You are a member of another team. Leave it first (Profile → Team), then open this link again.',
        );
      }
      if ((await this.memberCount(user.id)) > 0) {
        throw new AppError(
          409,
          'CANNOT_JOIN_TEAM',
          'Your own team has members. Remove them first (Profile → Team), then open this link again.',
        );
      }
      const [self] = (await tx.query(`SELECT plan FROM users WHERE id = $1`, [user.id])) as Array<{
        plan: string;
      }>;
      if (planOf(self?.plan).key !== 'free') {
        throw new AppError(
          409,
          'CANNOT_JOIN_TEAM',
          `You pay for the ${planOf(self.plan).name} plan yourself, and a team works on its account holder's ` +
            'plan. Cancel your subscription (Profile → Plan) and join once it has ended.',
        );
      }
      const seats = limitsOf(team.plan).teamMembers;
      const [count] = (await tx.query(`SELECT count(*) AS n FROM team_memberships WHERE team_id = $1`, [
        inv.team_id,
      ])) as Array<{ n: string }>;
      if (seats !== UNLIMITED && Number(count.n) >= seats) {
        throw new AppError(
          403,
          'TEAM_SEAT_LIMIT',
          'This team has no free seat. Ask its account holder to free one or upgrade, then open this link again.',
        );
      }
      await tx.query(
        `UPDATE team_memberships SET team_id = $2, role = 'member', joined_at = now() WHERE user_id = $1`,
        [user.id, inv.team_id],
      );
      await tx.query(`UPDATE team_invitations SET accepted_at = now(), accepted_by = $2 WHERE id = $1`, [
        inv.id,
        user.id,
      ]);
      return { message: 'You joined the team.', teamId: inv.team_id };
    });
  }

  async removeMember(user: AuthUser, memberId: string): Promise<void> {
    if (memberId === user.id) {
      throw new AppError(
        400,
        'BAD_REQUEST',
        'You are the account holder: you cannot remove yourself. Delete your account to close the team.',
      );
    }
    const moved = isUuid(memberId) && (await this.sendHome(memberId, user.teamId));
    if (!moved) throw new AppError(404, 'NOT_FOUND', 'No such member in your team.');
  }

  async leave(user: AuthUser): Promise<void> {
    if (user.teamRole === 'owner') {
      throw new AppError(
        409,
        'BAD_REQUEST',
        'You are the account holder of this team, so you cannot leave it. Remove members or delete your account.',
      );
    }
    await this.sendHome(user.id, user.teamId);
  }

  /** Every member of the account holder's team goes back to their own team (before the team is deleted). */
  async disband(teamId: string): Promise<void> {
    const rows = (await this.db.query(
      `SELECT user_id FROM team_memberships WHERE team_id = $1 AND role = 'member'`,
      [teamId],
    )) as Array<{ user_id: string }>;
    for (const r of rows) await this.sendHome(r.user_id, teamId);
  }

  /**
   * Takes a member out of `teamId` and back to their own team, and revokes the API keys they created for
   * `teamId`; returns false when they were not a member of it.
   */
  private async sendHome(memberId: string, teamId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [, affected] = (await tx.query(
        `UPDATE team_memberships SET team_id = user_id, role = 'owner', joined_at = now()
          WHERE user_id = $1 AND team_id = $2 AND role = 'member'`,
        [memberId, teamId],
      )) as [unknown, number];
      if (!affected) return false;
      await tx.query(
        `UPDATE api_keys SET revoked_at = now() WHERE user_id = $1 AND team_id = $2 AND revoked_at IS NULL`,
        [memberId, teamId],
      );
      return true;
    });
  }

  /** Serialises seat changes of one team; answers the team's plan (its owner's). */
  private lockTeam(tx: EntityManager, teamId: string): Promise<Array<{ plan: string }>> {
    return tx.query(
      `SELECT o.plan FROM teams t JOIN users o ON o.id = t.owner_id WHERE t.id = $1 FOR UPDATE OF t`,
      [teamId],
    );
  }

  private async members(teamId: string, seats: number): Promise<TeamMemberView[]> {
    const rows = (await this.db.query(
      `SELECT m.user_id, u.username, u.email, m.role, m.joined_at FROM team_memberships m
         JOIN users u ON u.id = m.user_id
        WHERE m.team_id = $1
        ORDER BY (m.role = 'owner') DESC, m.joined_at, m.user_id`,
      [teamId],
    )) as Array<{
      user_id: string;
      username: string;
      email: string;
      role: 'owner' | 'member';
      joined_at: Date;
    }>;
    return rows.map((r, i) => ({
      userId: r.user_id,
      username: r.username,
      email: r.email,
      role: r.role,
      joinedAt: r.joined_at.toISOString(),
      readOnly: r.role === 'member' && seats !== UNLIMITED && i + 1 > seats,
    }));
  }

  private async pendingInvitations(teamId: string): Promise<TeamInvitationView[]> {
    const rows = (await this.db.query(
      `SELECT id, email, created_at, expires_at FROM team_invitations
        WHERE team_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
        ORDER BY created_at`,
      [teamId],
    )) as Array<{ id: string; email: string; created_at: Date; expires_at: Date }>;
    return rows.map((r) => ({
      id: r.id,
      email: r.email,
      createdAt: r.created_at.toISOString(),
      expiresAt: r.expires_at.toISOString(),
    }));
  }
}
