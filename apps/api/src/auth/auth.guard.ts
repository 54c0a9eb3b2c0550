import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { AuthUser } from './auth-user';
import { API_KEY_ALLOWED } from './api-key-allowed.decorator';
import { queryCarriesApiKey } from './api-key-token';
import { Authenticator, unauthorized } from './authenticator.service';
import { ACCOUNT_HOLDER_ONLY, READ_ONLY_MEMBER_ALLOWED } from './team-access.decorator';
import { AppError } from '../common/app-error';

/**
 * Authenticates a request by its session cookie, or by `Authorization: Bearer csvm_…` on routes marked
 * `@ApiKeyAllowed()`. A request that carries an Authorization header is judged by that header alone (never
 * by a cookie that happens to ride along), which is what lets the CSRF check skip Bearer requests.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const http = ctx.switchToHttp();
    const req = http.getRequest<Request & { user?: AuthUser }>();
    const res = http.getResponse<Response>();
    if (queryCarriesApiKey(req.originalUrl)) {
      throw unauthorized(
        'Unauthorized: send the API key in the Authorization header (Bearer), never in the URL.',
        'API_KEY_IN_URL',
      );
    }
    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      const keyAllowed = this.reflector.getAllAndOverride<boolean>(API_KEY_ALLOWED, [
        ctx.getHandler(),
        ctx.getClass(),
      ]);
      const bearer = /^Bearer +(\S+)$/i.exec(authorization);
      if (!keyAllowed || !bearer) {
        throw unauthorized(
          keyAllowed
            ? 'Unauthorized'
            : 'Unauthorized: API keys are accepted only on the published API routes; sign in instead.',
        );
      }
      req.user = await this.authenticator.fromApiKey(bearer[1], res);
      return this.checkTeamAccess(ctx, req.method, req.user);
    }
    const user = await this.authenticator.fromSession(req);
    if (!user) throw unauthorized();
    req.user = user;
    return this.checkTeamAccess(ctx, req.method, user);
  }

  /** Team rules every route shares: account-holder-only routes, and the read-only state after a downgrade. */
  private checkTeamAccess(ctx: ExecutionContext, method: string, user: AuthUser): boolean {
    const flag = (key: string) =>
      this.reflector.getAllAndOverride<boolean>(key, [ctx.getHandler(), ctx.getClass()]) === true;
    if (user.teamRole !== 'owner' && flag(ACCOUNT_HOLDER_ONLY)) {
      throw new AppError(
        403,
        'ACCOUNT_HOLDER_ONLY',
        "Only the team's account holder can do this. Ask them, or leave the team to manage your own account.",
      );
    }
    if (
      user.teamReadOnly &&
      !['GET', 'HEAD', 'OPTIONS'].includes(method) &&
      !flag(READ_ONLY_MEMBER_ALLOWED)
    ) {
      throw new AppError(
        403,
        'TEAM_READ_ONLY',
        "The team has more members than its plan's seats, so it is read-only for you: you can view its data " +
          'but not change it. The account holder can remove a member or upgrade the plan to restore access.',
      );
    }
    return true;
  }
}
