import type { Request } from 'express';
import { Redis } from 'ioredis';
import { DataSource, QueryFailedError } from 'typeorm';
import { CsvEngineError, WorkbookTooLargeError } from '@csv-mapper/csv-engine';
import { ErrorFilter } from './error.filter';

// Which failures are a dependency outage (503, retry later) rather than a bug (500): known by codes and
// classes (libs/queue's isInfrastructureError), never by message text; the driver errors that carry
// neither are settled by asking the dependencies (dependencyDown) before answering 500.
describe('ErrorFilter: outage or bug', () => {
  const req = { method: 'GET', originalUrl: '/api/x' } as Request;
  const status = (err: unknown) => new ErrorFilter().toBody(err, req).status;
  const pg = (code: string) => new QueryFailedError('SELECT 1', [], Object.assign(new Error('pg'), { code }));
  const withCode = (code: string) => Object.assign(new Error('x'), { code });

  it('answers 503 for Postgres refusing connections and Redis being unreachable, by code and class', () => {
    expect(status(pg('53300'))).toBe(503); // too_many_connections
    expect(status(pg('57P01'))).toBe(503); // admin_shutdown
    expect(status(pg('08006'))).toBe(503); // connection_failure
    expect(status(withCode('ECONNREFUSED'))).toBe(503);
    expect(status(Object.assign(new Error('y'), { name: 'MaxRetriesPerRequestError' }))).toBe(503);
    expect(status(new Error('outer', { cause: withCode('ECONNRESET') }))).toBe(503);
    expect(new ErrorFilter().toBody(withCode('ECONNREFUSED'), req).body).toEqual({
      error: expect.stringMatching(/try again/i),
      code: 'SERVICE_UNAVAILABLE',
    });
  });

  it('does not read message text: a message naming an outage is no outage by itself', () => {
    expect(status(new Error('timeout exceeded when trying to connect'))).toBe(500);
    expect(status(new Error('connect ECONNREFUSED 127.0.0.1:5432'))).toBe(500);
  });

  it("answers an engine error with the status and code it carries (the services don't convert them)", () => {
    expect(new ErrorFilter().toBody(new CsvEngineError('EMPTY_FILE', 'The file is empty.'), req)).toEqual({
      status: 400,
      body: { error: 'The file is empty.', code: 'EMPTY_FILE' },
    });
    expect(new ErrorFilter().toBody(new WorkbookTooLargeError('Too big.'), req)).toEqual({
      status: 413,
      body: { error: 'Too big.', code: 'WORKBOOK_TOO_LARGE' },
    });
  });

  it('leaves real bugs and data errors alone', () => {
    expect(status(pg('23505'))).toBe(500); // unique violation
    expect(status(new TypeError('Cannot read properties of undefined'))).toBe(500);
    expect(status(undefined)).toBe(500);
    expect(status('a string')).toBe(500);
  });

  describe('dependencyDown (asked before a 500)', () => {
    let redis: Redis | undefined;
    afterEach(() => {
      if (redis && redis.status !== 'end') redis.disconnect();
    });

    it('is false when no dependency is known to it', async () => {
      expect(await new ErrorFilter().dependencyDown()).toBe(false);
    });

    it('is true while the Redis client is not connected (nothing listens on port 1)', async () => {
      redis = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
      await redis.connect().catch(() => undefined);
      expect(await new ErrorFilter(undefined, redis).dependencyDown()).toBe(true);
    });

    it('is true when Postgres cannot be queried (a data source with no connection)', async () => {
      const db = new DataSource({ type: 'postgres', url: 'postgres://postgres@127.0.0.1:1/x' });
      expect(await new ErrorFilter(db).dependencyDown()).toBe(true);
    });
  });
});
