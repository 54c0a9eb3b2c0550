import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { AuthUser } from './auth-user';
import { API_KEY_ALLOWED } from './api-key-allowed.decorator';
import { queryCarriesApiKey } from './api-key-token';
import { Authenticator, unauthorized } from './authenticator.service';

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
      return true;
    }
    const user = await this.authenticator.fromSession(req);
    if (!user) throw unauthorized();
    req.user = user;
    return true;
  }
}
