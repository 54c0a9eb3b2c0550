import { describe, expect, it } from '@jest/globals';
import { AuthMessages, IDENTIFIER_MAX_LENGTH } from '@csv-mapper/domain';
import { loginFailed, loginProblem, signupProblem, signupWelcome } from './auth-checks';

describe('auth checks (one copy for the React forms and the sign-in island)', () => {
  it('log in: missing fields, a too-long identifier under its field, a malformed password, else nothing', () => {
    expect(loginProblem('', 'x')).toEqual({
      toast: {
        title: 'Missing fields',
        description: 'Please enter both email/username and password',
        type: 'error',
      },
    });
    expect(loginProblem('a'.repeat(IDENTIFIER_MAX_LENGTH + 1), 'Tr1cky-Mapper!')).toEqual({
      field: 'identifier',
      message: AuthMessages.identifierTooLong,
    });
    const short = loginProblem('ada', 'short');
    expect(short && 'toast' in short && short.toast.title).toBe('Invalid password format');
    expect(loginProblem('ada', 'Tr1cky-Mapper!')).toBeNull();
  });

  it('sign up: missing fields, an invalid email under its field, a password that fails a rule, else nothing', () => {
    expect(signupProblem('ada', '', 'Tr1cky-Mapper!')).toEqual({
      toast: { title: 'Missing fields', description: AuthMessages.registerMissing, type: 'error' },
    });
    expect(signupProblem('ada', 'not-an-email', 'Tr1cky-Mapper!')).toEqual({
      field: 'email',
      message: AuthMessages.invalidEmail,
    });
    const weak = signupProblem('ada', 'ada@example.test', 'password');
    expect(weak && 'toast' in weak && weak.toast.title).toBe('Invalid password');
    expect(signupProblem('ada', 'ada@example.test', 'Tr1cky-Mapper!')).toBeNull();
  });

  it('toasts after the api answers', () => {
    expect(signupWelcome(undefined).description).toBe('Your account is ready.');
    expect(loginFailed(new Error('boom'))).toMatchObject({ title: 'Login failed', type: 'error' });
  });
});
