import { QueryFailedError } from 'typeorm';
import { isDependencyOutage } from './error.filter';

// Which failures are a dependency outage (503, retry later) rather than a bug (500).
describe('isDependencyOutage', () => {
  const pg = (code: string) => new QueryFailedError('SELECT 1', [], Object.assign(new Error('pg'), { code }));

  it('recognises Postgres refusing connections and Redis being unreachable', () => {
    expect(isDependencyOutage(pg('53300'))).toBe(true); // too_many_connections
    expect(isDependencyOutage(pg('57P01'))).toBe(true); // admin_shutdown
    expect(
      isDependencyOutage(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' }),
      ),
    ).toBe(true);
    expect(
      isDependencyOutage(
        Object.assign(new Error('Reached the max retries per request limit'), {
          name: 'MaxRetriesPerRequestError',
        }),
      ),
    ).toBe(true);
    expect(
      isDependencyOutage(new Error("Stream isn't writeable and enableOfflineQueue options is false")),
    ).toBe(true);
    expect(isDependencyOutage(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(
      isDependencyOutage(
        new Error('outer', { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) }),
      ),
    ).toBe(true);
  });

  it('leaves real bugs and data errors alone', () => {
    expect(isDependencyOutage(pg('23505'))).toBe(false); // unique violation
    expect(isDependencyOutage(new TypeError('Cannot read properties of undefined'))).toBe(false);
    expect(isDependencyOutage(undefined)).toBe(false);
    expect(isDependencyOutage('a string')).toBe(false);
  });
});
