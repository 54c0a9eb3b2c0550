import { QueryFailedError } from 'typeorm';
import { DEFAULT_OUTAGE_POLICY, isInfrastructureError, outageDelayMs } from './outage';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isInfrastructureError (codes and classes, never message text)', () => {
  it('counts unreachable peers, Postgres going away and ioredis giving up as outages', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'EAI_AGAIN'])
      expect(isInfrastructureError(withCode(code))).toBe(true);
    for (const code of ['57P01', '57P02', '57P03', '53300', '08006', '08001'])
      expect(isInfrastructureError(new QueryFailedError('SELECT 1', [], withCode(code)))).toBe(true);
    expect(isInfrastructureError(Object.assign(new Error('y'), { name: 'MaxRetriesPerRequestError' }))).toBe(
      true,
    );
    expect(isInfrastructureError(new AggregateError([withCode('ECONNREFUSED')]))).toBe(true);
    expect(isInfrastructureError(new Error('outer', { cause: withCode('ECONNRESET') }))).toBe(true);
  });

  it('does not count errors in the data or the query, nor a message that merely mentions a code', () => {
    expect(isInfrastructureError(new QueryFailedError('INSERT', [], withCode('23505')))).toBe(false);
    expect(isInfrastructureError(new QueryFailedError('SELECT', [], withCode('42P01')))).toBe(false);
    expect(isInfrastructureError(new Error('connect ECONNREFUSED 127.0.0.1:5432'))).toBe(false);
    expect(isInfrastructureError(null)).toBe(false);
  });
});

describe('outageDelayMs', () => {
  it('doubles from the base up to the cap, with half of each wait random', () => {
    const p = DEFAULT_OUTAGE_POLICY;
    expect([0, 1, 2, 10].map((n) => outageDelayMs(n, p, () => 0))).toEqual([500, 1000, 2000, 15_000]);
    expect([0, 1, 2, 10].map((n) => outageDelayMs(n, p, () => 1))).toEqual([1000, 2000, 4000, 30_000]);
  });
});
