import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthUser } from './auth-user';

/** The AuthUser that AuthGuard authenticated; use only on routes behind `@UseGuards(AuthGuard)`. */
export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthUser => {
  const req = ctx.switchToHttp().getRequest<Request & { user?: AuthUser }>();
  if (!req.user) throw new Error('@CurrentUser() used on a route without AuthGuard');
  return req.user;
});
