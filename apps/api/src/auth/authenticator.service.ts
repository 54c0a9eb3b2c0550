import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Request, Response } from 'express';
import type { RedisClient } from '@csv-mapper/queue';
import { IsNull, Repository } from 'typeorm';
import { ApiKeyEntity, UserEntity } from '@csv-mapper/db';
import { limitsOf, planOf, UNLIMITED } from '@csv-mapper/domain';
import { AppError } from '../common/app-error';
import { ApiConfig } from '../config/api.config';
import { REDIS } from '../redis/redis.module';
import type { AuthUser } from './auth-user';
import { hashApiKey, looksLikeApiKey } from './api-key-token';
import { SESSION_ABSOLUTE_TIMEOUT_MS } from './session-data';
import './session-data';

/** Requests one API key may make per minute (the published API's per-key limit). */
export const API_KEY_REQUESTS_PER_MINUTE = 600;

export function unauthorized(message = 'Unauthorized', code = 'UNAUTHORIZED'): AppError {
  return new AppError(401, code, message);
}

/** Turns a session cookie or a Bearer API key into the AuthUser of the request. */
@Injectable()
export class Authenticator {
  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    @Inject(REDIS) private readonly redis: RedisClient,
    private readonly config: ApiConfig,
  ) {}

  /** The signed-in user of the session, or null (the session is destroyed when too old or orphaned). */
  async fromSession(req: Request): Promise<AuthUser | null> {
    const s = req.session;
    if (!s?.userId) return null;
    if (typeof s.authAt !== 'number' || Date.now() - s.authAt > SESSION_ABSOLUTE_TIMEOUT_MS) {
      await destroySession(req);
      return null;
    }
    // The hottest query of the api (every signed-in request): plain SQL for the columns AuthUser needs,
    // without the query builder and entity hydration a findOne costs (a third of this route's CPU).
    const [user] = (await this.users.query(
      `SELECT id, username, email, first_name AS "firstName", last_name AS "lastName", plan
         FROM users WHERE id = $1`,
      [s.userId],
    )) as AuthUserRow[];
    if (!user) {
      await destroySession(req);
      return null;
    }
    return this.withTeam(user, 'session');
  }

  /** The owner of a Bearer key; 401 for unknown or revoked keys, 403 when the plan has no API access. */
  async fromApiKey(key: string, res: Response): Promise<AuthUser> {
    if (!looksLikeApiKey(key)) throw unauthorized();
    const row = await this.keys.findOne({
      where: { keyHash: hashApiKey(key), revokedAt: IsNull() },
      relations: { user: true },
    });
    if (!row?.user) throw unauthorized();
    const caller = await this.withTeam(row.user, 'apiKey');
    // A key acts for the team it was made in, only while its creator still belongs to that team.
    if (caller.teamId !== row.teamId) throw unauthorized();
    if (!limitsOf(caller.plan).apiAccess) {
      throw new AppError(
        403,
        'API_ACCESS_NOT_IN_PLAN',
        `API access is not included in the ${planOf(caller.plan).name} plan. ` +
          'Upgrade to Business or Enterprise to use API keys.',
      );
    }
    await this.countKeyRequest(row.id, res);
    await this.keys.update({ id: row.id }, { lastUsedAt: new Date() });
    return caller;
  }

  /**
   * The caller's team, read on every request (so a removal takes effect at once): its plan is the account
   * holder's, and a member beyond the plan's seats (oldest members keep theirs) is read-only.
   */
  private async withTeam(user: AuthUserRow, via: AuthUser['via']): Promise<AuthUser> {
    type Row = { team_id: string; role: 'owner' | 'member'; team_plan: string; rank: string };
    const read = (): Promise<Row[]> =>
      this.users.query(
        `SELECT m.team_id, m.role, o.plan AS team_plan,
                (SELECT count(*) FROM team_memberships x
                  WHERE x.team_id = m.team_id AND x.role = 'member'
                    AND (x.joined_at, x.user_id) < (m.joined_at, m.user_id)) AS rank
           FROM team_memberships m JOIN teams t ON t.id = m.team_id JOIN users o ON o.id = t.owner_id
          WHERE m.user_id = $1`,
        [user.id],
      );
    let [row] = await read();
    if (!row) {
      // The team they were in was deleted with its owner: back to their own.
      await this.users.query(
        `INSERT INTO team_memberships (user_id, team_id, role) VALUES ($1, $1, 'owner') ON CONFLICT DO NOTHING`,
        [user.id],
      );
      [row] = await read();
    }
    const plan = planOf(row.team_plan).key;
    const seats = limitsOf(plan).teamMembers;
    return {
      ...toAuthUser(user, via),
      plan,
      teamId: row.team_id,
      teamRole: row.role,
      teamReadOnly: row.role === 'member' && seats !== UNLIMITED && Number(row.rank) + 2 > seats,
    };
  }

  private async countKeyRequest(keyId: string, res: Response): Promise<void> {
    const window = Math.floor(Date.now() / 60_000);
    const k = `${this.config.redisPrefix}apikey-rate:${keyId}:${window}`;
    const [[, count]] = (await this.redis.multi().incr(k).expire(k, 61).exec()) as [[null, number]];
    if (count > API_KEY_REQUESTS_PER_MINUTE) {
      const retryAfter = 60 - Math.floor((Date.now() / 1000) % 60);
      res.setHeader('Retry-After', String(retryAfter));
      throw new AppError(
        429,
        'TOO_MANY_REQUESTS',
        `This API key made more than ${API_KEY_REQUESTS_PER_MINUTE} requests in a minute. ` +
          `Try again in ${retryAfter} seconds.`,
      );
    }
  }
}

type AuthUserRow = Pick<UserEntity, 'id' | 'username' | 'email' | 'firstName' | 'lastName' | 'plan'>;

/** The caller alone, as the account holder of their own team (before their current team is read). */
export function toAuthUser(user: AuthUserRow, via: AuthUser['via']): AuthUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    plan: planOf(user.plan).key,
    via,
    teamId: user.id,
    teamRole: 'owner',
    teamReadOnly: false,
  };
}

export function destroySession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!req.session) return resolve();
    req.session.destroy((err) => (err ? reject(err as Error) : resolve()));
  });
}
