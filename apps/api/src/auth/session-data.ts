import 'express-session';

// What a signed-in session stores. Nothing else goes in it: the user row is re-read on every request,
// so a plan change or a deleted account takes effect at once.
declare module 'express-session' {
  interface SessionData {
    userId: string;
    /** When the user signed in (epoch ms): the absolute timeout counts from here. */
    authAt: number;
  }
}

/** A session lives at most 30 minutes without a request (rolling cookie + store expiry). */
export const SESSION_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
/**
 * The row's idle expiry is rewritten at most this often (not on every request): a session may end up to
 * this much before 30 idle minutes have passed, never after.
 */
export const SESSION_TOUCH_EVERY_MS = 60 * 1000;
/** …and at most 12 hours after sign-in, however active (checked by AuthGuard). */
export const SESSION_ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60 * 1000;

export function sessionCookieName(isProduction: boolean): string {
  // `__Host-` makes the browser insist on Secure, Path=/ and no Domain.
  return isProduction ? '__Host-csvm.sid' : 'csvm.sid';
}
