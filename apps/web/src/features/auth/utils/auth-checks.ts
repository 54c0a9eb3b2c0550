// What the log-in and sign-up forms check before they call the api, and the toasts they show after: one copy
// for the app's React forms (features/auth/components) and the sign-in page's island (islands/auth-island.ts),
// so the two never disagree on a rule or a message.
import type { SessionUserView } from '@csv-mapper/contracts';
import { AuthMessages, IDENTIFIER_MAX_LENGTH, isValidEmail, passwordErrors } from '@csv-mapper/domain';
import type { ShowToastOptions } from '../../../components/toaster';
import { errorDescription } from '../../../lib/api-client';

/** A check that failed: a toast to show, or a message under one field. */
export type AuthProblem = { toast: ShowToastOptions } | { field: 'identifier' | 'email'; message: string };

const error = (title: string, description: string): AuthProblem => ({
  toast: { title, description, type: 'error' },
});

/** Log in: both fields given, the identifier not too long, the password well formed (not the common list). */
export function loginProblem(identifier: string, password: string): AuthProblem | null {
  if (!identifier || !password)
    return error('Missing fields', 'Please enter both email/username and password');
  if (identifier.length > IDENTIFIER_MAX_LENGTH)
    return { field: 'identifier', message: AuthMessages.identifierTooLong };
  const ruleErrors = passwordErrors(password, { checkCommon: false });
  return ruleErrors.length > 0 ? error('Invalid password format', ruleErrors[0]) : null;
}

/** Sign up: username, email and password given, the email valid, the password passes every rule. */
export function signupProblem(username: string, email: string, password: string): AuthProblem | null {
  if (!username || !email || !password) return error('Missing fields', AuthMessages.registerMissing);
  if (!isValidEmail(email)) return { field: 'email', message: AuthMessages.invalidEmail };
  const ruleErrors = passwordErrors(password);
  return ruleErrors.length > 0 ? error('Invalid password', ruleErrors[0]) : null;
}

export const loginWelcome = (user: SessionUserView | undefined): ShowToastOptions => ({
  title: 'Welcome back!',
  description: user?.username ? `Logged in as ${user.username}` : undefined,
  type: 'success',
});

export const signupWelcome = (user: SessionUserView | undefined): ShowToastOptions => ({
  title: 'Welcome!',
  description: user?.username ? `Your account ${user.username} is ready.` : 'Your account is ready.',
  type: 'success',
});

export const loginFailed = (err: unknown): ShowToastOptions => ({
  title: 'Login failed',
  description: errorDescription(err, AuthMessages.invalidCredentials),
  type: 'error',
});

export const signupFailed = (err: unknown): ShowToastOptions => ({
  title: 'Registration failed',
  description: errorDescription(err, 'Failed to create account'),
  type: 'error',
});
