import { describe, expect, it } from '@jest/globals';
import {
  ApiError,
  errorDescription,
  getErrorMessage,
  getErrorStatus,
  hasErrorCode,
  isUnauthorizedError,
} from './api-client';

// Spec §8: a failed call reads '<status>: <body>'; the web app decides by the body's code, not its text.

const apiError = (status: number, body: unknown) => new ApiError(status, JSON.stringify(body));

describe('ApiError', () => {
  it('keeps the spec §8 message and exposes the status, code and human message', () => {
    const err = apiError(409, { error: 'You already have a Pro subscription.', code: 'ALREADY_SUBSCRIBED' });
    expect(err.message).toBe(
      '409: {"error":"You already have a Pro subscription.","code":"ALREADY_SUBSCRIBED"}',
    );
    expect(err.status).toBe(409);
    expect(err.code).toBe('ALREADY_SUBSCRIBED');
    expect(getErrorMessage(err)).toBe('You already have a Pro subscription.');
    expect(hasErrorCode(err, 'ALREADY_SUBSCRIBED')).toBe(true);
    expect(hasErrorCode(err, 'SAME_PLAN')).toBe(false);
  });

  it('has no code when the body is not the api’s JSON (a proxy page), and falls back to the status text', () => {
    const err = new ApiError(502, '', 'Bad Gateway');
    expect(err.message).toBe('502: Bad Gateway');
    expect(err.code).toBeUndefined();
    expect(getErrorMessage(new ApiError(502, '<html>Bad Gateway</html>'))).toBeUndefined();
  });

  it('reads a failed fetch Response', async () => {
    const res = new Response(JSON.stringify({ error: 'Not found.', code: 'NOT_FOUND' }), { status: 404 });
    const err = await ApiError.from(res);
    expect(err).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(getErrorStatus(err)).toBe(404);
  });
});

describe('unauthorised (the session ended)', () => {
  it('is a 401 with code UNAUTHORIZED', () => {
    expect(isUnauthorizedError(apiError(401, { error: 'Unauthorized', code: 'UNAUTHORIZED' }))).toBe(true);
  });

  it('is a 401 without the api’s body too (a proxy in front of it)', () => {
    expect(isUnauthorizedError(new ApiError(401, '', 'Unauthorized'))).toBe(true);
  });

  it('is not a wrong password at login, whatever its message says', () => {
    const err = apiError(401, {
      error: 'Unauthorized: invalid username or password',
      code: 'INVALID_CREDENTIALS',
    });
    expect(isUnauthorizedError(err)).toBe(false);
  });

  it('is not another status that mentions Unauthorized, nor a plain Error', () => {
    expect(isUnauthorizedError(apiError(403, { error: 'Unauthorized origin', code: 'CSRF_REJECTED' }))).toBe(
      false,
    );
    expect(isUnauthorizedError(new Error('401: Unauthorized'))).toBe(false);
  });
});

describe('toast descriptions', () => {
  it('show the api’s own message when it sent one', () => {
    const err = apiError(400, { error: 'Please enter a name for the mapping', code: 'NAME_REQUIRED' });
    expect(errorDescription(err, 'Failed to save mapping')).toBe('Please enter a name for the mapping');
  });

  it('use the caller’s wording for a 4xx without a message', () => {
    expect(errorDescription(new ApiError(404, ''), 'Failed to delete mapping')).toBe(
      'Failed to delete mapping',
    );
  });

  it('say the server could not be reached for a network failure or a bare 5xx', () => {
    const unreachable = 'The server could not be reached. Please try again in a moment.';
    expect(errorDescription(new TypeError('Failed to fetch'), 'Failed to log out')).toBe(unreachable);
    expect(errorDescription(new ApiError(503, '', 'Service Unavailable'), 'Failed to log out')).toBe(
      unreachable,
    );
  });
});
