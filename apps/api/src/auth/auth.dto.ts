import { AuthMessages, IDENTIFIER_MAX_LENGTH, isValidEmail, passwordErrors } from '@csv-mapper/domain';
import { AppError } from '../common/app-error';

// Request bodies of the auth routes, checked by hand against the spec §5 rules and messages, which live in
// libs/domain and are shared with the web app.

export const USERNAME_RE = /^[A-Za-z0-9._-]{3,64}$/;
export const USERNAME_MESSAGE =
  'Username must be 3 to 64 characters: letters, numbers, dots, dashes or underscores';
const NAME_MAX = 100;

export interface LoginDto {
  identifier: string;
  password: string;
}
export interface RegisterDto {
  username: string;
  email: string;
  password: string;
  firstName: string | null;
  lastName: string | null;
}
export interface ResetDto {
  token: string;
  password: string;
}

function field(body: unknown, key: string): string {
  if (!body || typeof body !== 'object') return '';
  const v = (body as Record<string, unknown>)[key];
  return typeof v === 'string' ? v : '';
}

export function invalid(message: string, code = 'VALIDATION_FAILED', details?: unknown): AppError {
  return new AppError(400, code, message, details);
}

/** The password rules of spec §5 plus the common-password list; no trimming, no truncation. */
export function assertPasswordAcceptable(password: string): void {
  const errors = passwordErrors(password);
  if (errors.length) throw invalid(errors.join('. '), 'INVALID_PASSWORD', { password: errors });
}

export function parseLogin(body: unknown): LoginDto {
  const identifier = field(body, 'identifier').trim();
  const password = field(body, 'password');
  if (!identifier) throw invalid(AuthMessages.identifierRequired);
  if (identifier.length > IDENTIFIER_MAX_LENGTH) throw invalid(AuthMessages.identifierTooLong);
  if (!password) throw invalid(AuthMessages.passwordRequired);
  return { identifier, password };
}

/**
 * Spec §5 says the password rules are "also checked on login": a password that could never have been set
 * is refused before any account is looked up (the rules only, not the common list, so old accounts work).
 */
export function loginPasswordWellFormed(password: string): boolean {
  return passwordErrors(password, { checkCommon: false }).length === 0;
}

export function parseRegister(body: unknown): RegisterDto {
  const username = field(body, 'username').trim();
  const email = field(body, 'email').trim();
  const password = field(body, 'password');
  if (!username || !email || !password) throw invalid(AuthMessages.registerMissing);
  if (!USERNAME_RE.test(username)) throw invalid(USERNAME_MESSAGE);
  if (!isValidEmail(email)) throw invalid(AuthMessages.invalidEmail);
  assertPasswordAcceptable(password);
  const firstName = field(body, 'firstName').trim().slice(0, NAME_MAX) || null;
  const lastName = field(body, 'lastName').trim().slice(0, NAME_MAX) || null;
  return { username, email, password, firstName, lastName };
}

export function parseResetRequest(body: unknown): string {
  const email = field(body, 'email').trim();
  if (!email) throw invalid('Please enter your email address', 'EMAIL_REQUIRED');
  if (!isValidEmail(email)) throw invalid(AuthMessages.invalidEmail);
  return email;
}

export function parseReset(body: unknown): ResetDto {
  const token = field(body, 'token').trim();
  const password = field(body, 'password');
  if (!token) throw invalid(AuthMessages.tokenRequired, 'TOKEN_REQUIRED');
  if (!password) throw invalid(AuthMessages.passwordRequired);
  assertPasswordAcceptable(password);
  return { token, password };
}
