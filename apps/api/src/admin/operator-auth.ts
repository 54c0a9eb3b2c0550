import { createHash, timingSafeEqual } from 'node:crypto';

/** Constant-time HTTP Basic check of the operator credentials. */
export function isOperator(header: string | undefined, op: { user: string; password: string }): boolean {
  if (!header?.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  const userOk = timingSafeEqual(digest(decoded.slice(0, i)), digest(op.user));
  const passOk = timingSafeEqual(digest(decoded.slice(i + 1)), digest(op.password));
  return userOk && passOk;
}
