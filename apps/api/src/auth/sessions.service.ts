import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import { ApiConfig } from '../config/api.config';
import { sessionCookieName } from './session-data';

/** Starts, ends and revokes browser sessions (rows of the `sessions` table). */
@Injectable()
export class SessionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: ApiConfig,
  ) {}

  /** Signs the request in under a brand-new session id (the old id, if any, is destroyed). */
  async start(req: Request, userId: string): Promise<void> {
    await new Promise<void>((resolve, reject) =>
      req.session.regenerate((err) => (err ? reject(err as Error) : resolve())),
    );
    req.session.userId = userId;
    req.session.authAt = Date.now();
    await new Promise<void>((resolve, reject) =>
      req.session.save((err) => (err ? reject(err as Error) : resolve())),
    );
  }

  async end(req: Request): Promise<void> {
    if (!req.session) return;
    await new Promise<void>((resolve, reject) =>
      req.session.destroy((err) => (err ? reject(err as Error) : resolve())),
    );
  }

  /** Ends the request's session and tells the browser to drop its cookie. */
  async endAndClear(req: Request, res: Response): Promise<void> {
    await this.end(req);
    res.clearCookie(sessionCookieName(this.config.isProduction), {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.isProduction,
    });
  }

  /** Every session of the user, everywhere (password reset, account deletion). */
  async revokeAll(userId: string): Promise<number> {
    const [, count] = (await this.dataSource.query(`DELETE FROM sessions WHERE sess->>'userId' = $1`, [
      userId,
    ])) as [unknown, number];
    return count;
  }
}
