import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Request, Response } from 'express';
import { QueryFailedError, Repository } from 'typeorm';
import { UserEntity } from '@csv-mapper/db';
import { AuthMessages } from '@csv-mapper/domain';
import { AppError } from '../common/app-error';
import { ApiConfig } from '../config/api.config';
import type { LoginRequest, RegisterRequest, SessionUserView } from '@csv-mapper/contracts';
import { assertPasswordAcceptable, loginPasswordWellFormed } from './password-rules';
import { PasswordHasher } from './password-hasher.service';
import { SessionsService } from './sessions.service';
import { ThrottleService, type ThrottleSlot, tooMany } from './throttle.service';

/** Failed password checks one account may take per window before it is paused (soft lock). */
export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_FAILURE_WINDOW_SECONDS = 15 * 60;
/** Failed password checks one client IP may cause per window, across all accounts (slows username spraying). */
export const LOGIN_FAILURES_PER_IP = 100;
const REGISTRATION_WINDOW_SECONDS = 60 * 60;
/**
 * Sign-ups answered "already exists" one client IP may get per hour; then its sign-ups pause (429). The
 * spec's sign-up signs the new user in at once, so a known email cannot get the same answer as a new one.
 */
export const REGISTRATION_CONFLICTS_PER_IP = 3;

export type { SessionUserView } from '@csv-mapper/contracts';

export function toSessionUser(
  u: Pick<UserEntity, 'id' | 'username' | 'email' | 'firstName' | 'lastName'>,
): SessionUserView {
  return { id: u.id, username: u.username, email: u.email, firstName: u.firstName, lastName: u.lastName };
}

@Injectable()
export class AuthService {
  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly throttle: ThrottleService,
    private readonly config: ApiConfig,
  ) {}

  /** Email (any case) when the identifier has an '@', else username (any case). Password included. */
  findByIdentifier(identifier: string): Promise<UserEntity | null> {
    const column = identifier.includes('@') ? 'email' : 'username';
    return this.users
      .createQueryBuilder('u')
      .addSelect('u.password')
      .where(`lower(u.${column}) = lower(:identifier)`, { identifier })
      .getOne();
  }

  async register(dto: RegisterRequest, req: Request, res: Response): Promise<SessionUserView> {
    assertPasswordAcceptable(dto.password);
    const ip = req.ip ?? 'unknown';
    const conflicts = `register-conflict:${ip}`;
    const paused = (seconds: number) => tooMany(res, seconds, 'Too many sign-ups from this network.');
    // Every attempt takes a slot before any work, atomically (50 at once cannot overshoot the limit); a
    // refused one takes none. A network that has had its "already exists" answers is paused as a whole.
    const full = await this.throttle.reserve(
      [
        { bucket: `register:${ip}`, limit: this.config.registrationsPerIpPerHour },
        { bucket: conflicts, limit: REGISTRATION_CONFLICTS_PER_IP, checkOnly: true },
      ],
      REGISTRATION_WINDOW_SECONDS,
    );
    if (full) throw paused(full.retryAfterSeconds);
    // Hash first: a taken username or email then answers in the same time as a new one.
    const hash = await this.hasher.hash(dto.password);
    const taken = await this.users
      .createQueryBuilder('u')
      .where('lower(u.username) = lower(:username) OR lower(u.email) = lower(:email)', dto)
      .getExists();
    // "Already exists" tells whether an address has an account, so one network gets only a few of those
    // answers per hour: counted when given (INCR, so concurrent probes cannot overshoot), 429 past the limit.
    const refuseTaken = async () => {
      const given = await this.throttle.hit(conflicts, REGISTRATION_WINDOW_SECONDS);
      if (given <= REGISTRATION_CONFLICTS_PER_IP) return accountExists();
      return paused(await this.throttle.secondsLeft(conflicts, REGISTRATION_WINDOW_SECONDS));
    };
    if (taken) throw await refuseTaken();
    // A new address answers 429 too once the pause began meanwhile, so a 429 never tells "taken" apart.
    const pausedMeanwhile = await this.throttle.reserve(
      [{ bucket: conflicts, limit: REGISTRATION_CONFLICTS_PER_IP, checkOnly: true }],
      REGISTRATION_WINDOW_SECONDS,
    );
    if (pausedMeanwhile) throw paused(pausedMeanwhile.retryAfterSeconds);
    let user: UserEntity;
    try {
      user = await this.users.save(
        this.users.create({
          username: dto.username,
          email: dto.email,
          password: hash,
          firstName: dto.firstName ?? null,
          lastName: dto.lastName ?? null,
        }),
      );
    } catch (err) {
      if (err instanceof QueryFailedError && (err.driverError as { code?: string }).code === '23505') {
        throw await refuseTaken();
      }
      throw err;
    }
    await this.sessions.start(req, user.id);
    return toSessionUser(user);
  }

  async login(dto: LoginRequest, req: Request, res: Response): Promise<SessionUserView> {
    if (!loginPasswordWellFormed(dto.password)) {
      throw new AppError(400, 'INVALID_PASSWORD_FORMAT', 'Invalid password format');
    }
    const user = await this.findByIdentifier(dto.identifier);
    const account = loginBucket(user?.id ?? `unknown:${dto.identifier.toLowerCase()}`);
    const ip = loginIpBucket(req.ip);
    // The slots are taken before the password is checked: a failure keeps them, a success gives them back.
    await this.reserveAttempt(
      [
        { bucket: account, limit: LOGIN_FAILURE_LIMIT },
        { bucket: ip, limit: LOGIN_FAILURES_PER_IP },
      ],
      res,
    );
    const ok = user
      ? await this.hasher.verify(user.password, dto.password)
      : await this.hasher.verifyNothing(dto.password);
    if (!user || !ok) throw new AppError(401, 'INVALID_CREDENTIALS', AuthMessages.invalidCredentials);
    await this.throttle.clear(account);
    await this.throttle.release(ip);
    await this.sessions.start(req, user.id);
    return toSessionUser(user);
  }

  /**
   * Checks the signed-in user's password for a sensitive action (account deletion). Attempts take a slot
   * of the same per-account budget as logins; a right password gives it back.
   */
  async confirmPassword(userId: string, password: string, res: Response): Promise<boolean> {
    const bucket = loginBucket(userId);
    await this.reserveAttempt([{ bucket, limit: LOGIN_FAILURE_LIMIT }], res);
    const user = await this.users
      .createQueryBuilder('u')
      .addSelect('u.password')
      .where('u.id = :userId', { userId })
      .getOne();
    const ok = user ? await this.hasher.verify(user.password, password) : false;
    if (ok) await this.throttle.release(bucket);
    return ok;
  }

  /** Lifts the failed-login pause (after a password reset: reset must always get you back in). */
  clearLoginFailures(userId: string): Promise<void> {
    return this.throttle.clear(loginBucket(userId));
  }

  /** Takes a slot in every bucket at once, or answers 429 (Retry-After) naming what is paused. */
  private async reserveAttempt(slots: ThrottleSlot[], res: Response): Promise<void> {
    const full = await this.throttle.reserve(slots, LOGIN_FAILURE_WINDOW_SECONDS);
    if (!full) return;
    const who = full.blocked.bucket.startsWith(IP_BUCKET_PREFIX) ? 'from this network' : 'for this account';
    throw tooMany(
      res,
      full.retryAfterSeconds,
      `Too many failed login attempts ${who}. You can also reset your password.`,
    );
  }
}

function loginBucket(id: string): string {
  return `login-fail:${id}`;
}

const IP_BUCKET_PREFIX = 'login-fail-ip:';

/** The client IP (behind TRUST_PROXY hops), so one address spraying many usernames is slowed too. */
function loginIpBucket(ip: string | undefined): string {
  return `${IP_BUCKET_PREFIX}${ip ?? 'unknown'}`;
}

function accountExists(): AppError {
  // One message for a taken username and a taken email alike: it does not say which one exists.
  return new AppError(
    409,
    'ACCOUNT_EXISTS',
    'An account with that username or email already exists. Log in, or choose a different username and email.',
  );
}
