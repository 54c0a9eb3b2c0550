import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Response } from 'express';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource, IsNull, Repository } from 'typeorm';
import { PasswordResetTokenEntity, UserEntity } from '@csv-mapper/db';
import { AppError } from '../common/app-error';
import { ApiConfig } from '../config/api.config';
import { MailService } from '../mail/mail.service';
import { AuthService } from './auth.service';
import type { ResetPasswordRequest } from '@csv-mapper/contracts';
import { assertPasswordAcceptable } from './password-rules';
import { PasswordHasher } from './password-hasher.service';
import { SessionsService } from './sessions.service';
import { ThrottleService } from './throttle.service';

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const RESET_REQUESTS_PER_HOUR = 3;
export const RESET_REQUEST_ACCEPTED =
  'If an account with that email exists, a password reset link has been sent.';

export function hashResetToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Password reset by emailed link: 32 random bytes, stored as SHA-256, valid 1 hour, single use, and a
 * newer request voids older ones. The answer to a request is the same whether or not the account exists.
 */
@Injectable()
export class PasswordResetService {
  private readonly logger = new Logger('PasswordReset');

  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly dataSource: DataSource,
    private readonly auth: AuthService,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly throttle: ThrottleService,
    private readonly mail: MailService,
    private readonly config: ApiConfig,
  ) {}

  async request(email: string, res: Response): Promise<void> {
    // Counted per address whether or not it has an account, so the limit reveals nothing either.
    await this.throttle.consume(
      `reset:${email.toLowerCase()}`,
      RESET_REQUESTS_PER_HOUR,
      60 * 60,
      res,
      'Too many reset requests for this email address.',
    );
    const user = await this.users
      .createQueryBuilder('u')
      .where('lower(u.email) = lower(:email)', { email })
      .getOne();
    if (!user) return;
    const token = randomBytes(32).toString('base64url');
    await this.dataSource.transaction(async (m) => {
      const tokens = m.getRepository(PasswordResetTokenEntity);
      await tokens.update({ userId: user.id, usedAt: IsNull() }, { usedAt: new Date() });
      await tokens.insert({
        userId: user.id,
        token: hashResetToken(token),
        expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
      });
    });
    const link = `${this.config.appUrl}/reset-password?token=${encodeURIComponent(token)}`;
    // Not awaited: the answer must not wait for (or reveal) the mail server.
    void this.mail
      .send({
        to: user.email,
        subject: 'Reset your CSV Mapper password',
        text:
          `Hello ${user.firstName ?? user.username},\n\n` +
          `Someone asked to reset the password of your CSV Mapper account. To choose a new password, ` +
          `open this link within 1 hour:\n\n${link}\n\n` +
          `If it was not you, ignore this email: your password stays as it is.\n`,
      })
      .catch((err: Error) => this.logger.error(`Reset mail to user ${user.id} failed: ${err.message}`));
  }

  async reset(dto: ResetPasswordRequest): Promise<void> {
    assertPasswordAcceptable(dto.password);
    // One statement claims the token, so two concurrent uses cannot both succeed.
    const [rows] = (await this.dataSource.query(
      `UPDATE password_reset_tokens SET used_at = now()
        WHERE token = $1 AND used_at IS NULL AND expires_at > now()
        RETURNING user_id`,
      [hashResetToken(dto.token)],
    )) as [Array<{ user_id: string }>, number];
    const userId = rows[0]?.user_id;
    if (!userId) {
      throw new AppError(
        400,
        'INVALID_RESET_TOKEN',
        'This password reset link is invalid, already used or expired. Request a new one.',
      );
    }
    const hash = await this.hasher.hash(dto.password);
    await this.users.update({ id: userId }, { password: hash });
    await this.dataSource
      .getRepository(PasswordResetTokenEntity)
      .update({ userId, usedAt: IsNull() }, { usedAt: new Date() });
    await this.sessions.revokeAll(userId);
    await this.auth.clearLoginFailures(userId);
    const user = await this.users.findOne({ where: { id: userId } });
    if (user) {
      void this.mail
        .send({
          to: user.email,
          subject: 'Your CSV Mapper password was changed',
          text:
            `Hello ${user.firstName ?? user.username},\n\n` +
            `The password of your CSV Mapper account was just changed, and every signed-in session was ` +
            `signed out. If this was not you, reset your password at ${this.config.appUrl}/forgot-password ` +
            `and contact support.\n`,
        })
        .catch((err: Error) => this.logger.error(`Notice mail to user ${userId} failed: ${err.message}`));
    }
  }
}
