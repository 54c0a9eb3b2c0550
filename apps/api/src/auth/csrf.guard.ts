import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppError } from '../common/app-error';
import { ApiConfig } from '../config/api.config';
import { CSRF_EXEMPT } from './csrf-exempt.decorator';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const REQUESTED_WITH = 'csv-mapper';

/**
 * Global guard against cross-site writes (SameSite=Lax is the first line; this is the second):
 * a state-changing request is refused when the browser says it is cross-site, when (without Fetch
 * Metadata) its Origin is not ours, or when it lacks the app's `X-Requested-With` header, which a
 * cross-site page cannot add without a CORS preflight that this api never grants. Bearer-key requests
 * carry no ambient credentials and are exempt, as are routes marked `@CsrfExempt()`.
 */
@Injectable()
export class CsrfGuard implements CanActivate {
  private readonly ownOrigin: string;

  constructor(
    private readonly reflector: Reflector,
    config: ApiConfig,
  ) {
    this.ownOrigin = new URL(config.appUrl).origin;
  }

  canActivate(ctx: ExecutionContext): boolean {
    if (ctx.getType() !== 'http') return true;
    const req = ctx.switchToHttp().getRequest<Request>();
    if (SAFE_METHODS.has(req.method)) return true;
    if (this.reflector.getAllAndOverride<boolean>(CSRF_EXEMPT, [ctx.getHandler(), ctx.getClass()])) {
      return true;
    }
    if (/^Bearer /i.test(req.headers.authorization ?? '')) return true;
    const site = req.headers['sec-fetch-site'];
    const origin = req.headers.origin;
    if (site === 'cross-site' || (site === undefined && origin !== undefined && origin !== this.ownOrigin)) {
      throw refused('Cross-site requests are not allowed. Use CSV Mapper from its own address.');
    }
    if (req.headers['x-requested-with'] !== REQUESTED_WITH) {
      throw refused(`This request must come from the CSV Mapper app (X-Requested-With: ${REQUESTED_WITH}).`);
    }
    return true;
  }
}

function refused(message: string): AppError {
  return new AppError(403, 'CSRF_REJECTED', message);
}
