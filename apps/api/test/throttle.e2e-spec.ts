import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { LOGIN_FAILURE_LIMIT, LOGIN_FAILURES_PER_IP } from '../src/auth/auth.service';
import { PasswordHasher } from '../src/auth/password-hasher.service';
import { OPERATOR_FAILURES_PER_IP } from '../src/admin/operator-auth.service';
import { H, signUp, startApp } from './support/api-test-app';

// Throttles under concurrency (issue 18): a slot is taken in Redis before a password is checked, so
// concurrent guesses cannot overshoot the limit, on one api instance or two sharing Redis.

const PASSWORD = 'Tr1cky-Mapper!';
const OPERATOR = { user: 'ops', password: 'operator-password-123' };

/** A client address of its own per test (TRUST_PROXY=1): buckets never leak between tests. */
function freshIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

function login(app: INestApplication, ip: string, identifier: string, password: string) {
  return request(app.getHttpServer())
    .post('/api/login')
    .set(H)
    .set('X-Forwarded-For', ip)
    .send({ identifier, password });
}

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** Counts the argon2 verifications an app instance performs (its PasswordHasher is the only caller). */
function countVerifies(app: INestApplication): jest.SpyInstance {
  return jest.spyOn(app.get(PasswordHasher), 'verify');
}

function expectThrottled(res: request.Response): void {
  expect(res.status).toBe(429);
  expect(res.body.code).toBe('TOO_MANY_REQUESTS');
  expect(typeof res.body.error).toBe('string');
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
}

function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

describe('login throttle under concurrency (e2e)', () => {
  let app: INestApplication;
  let other: INestApplication;

  beforeAll(async () => {
    app = await startApp({ TRUST_PROXY: '1' });
    other = await startApp({ TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await app.close();
    await other.close();
  });
  afterEach(() => jest.restoreAllMocks());

  it('50 concurrent wrong passwords on one account: at most 10 password checks, the rest 429 with Retry-After', async () => {
    const { username } = await signUp(app);
    const verify = countVerifies(app);
    const ip = freshIp();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => login(app, ip, username, `Wrong-Pass${i}!`)),
    );
    const counts = tally(results.map((r) => r.status));
    console.log(`50 concurrent wrong logins: ${verify.mock.calls.length} password checks, statuses`, counts);
    expect(verify.mock.calls.length).toBeLessThanOrEqual(LOGIN_FAILURE_LIMIT);
    expect(counts[401]).toBe(verify.mock.calls.length);
    expect(counts[429]).toBe(50 - verify.mock.calls.length);
    for (const r of results.filter((x) => x.status === 429)) expectThrottled(r);

    // The right password during the lockout is refused too, without a password check.
    verify.mockClear();
    expectThrottled(await login(app, freshIp(), username, PASSWORD));
    expect(verify).not.toHaveBeenCalled();
  });

  it('holds across two api instances sharing Redis (25 concurrent guesses on each)', async () => {
    const { username } = await signUp(app);
    const verifyA = countVerifies(app);
    const verifyB = countVerifies(other);
    const ip = freshIp();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => login(i % 2 ? other : app, ip, username, `Wrong-Pass${i}!`)),
    );
    const checks = verifyA.mock.calls.length + verifyB.mock.calls.length;
    console.log(`two instances: ${checks} password checks, statuses`, tally(results.map((r) => r.status)));
    expect(checks).toBeLessThanOrEqual(LOGIN_FAILURE_LIMIT);
    expect(results.filter((r) => r.status === 429)).toHaveLength(50 - checks);
  });

  it(`slows a spray across usernames: ${LOGIN_FAILURES_PER_IP} failures from one IP, then 429 for any account`, async () => {
    const { username } = await signUp(app);
    const ip = freshIp();
    const tag = randomBytes(4).toString('hex');
    const verify = countVerifies(app);
    const statuses: number[] = [];
    // In waves of 20: every username is new, so no per-account bucket comes near its limit.
    for (let wave = 0; wave < LOGIN_FAILURES_PER_IP / 20 + 1; wave++) {
      const res = await Promise.all(
        Array.from({ length: 20 }, (_, i) => login(app, ip, `spray_${tag}_${wave}_${i}`, 'Wrong-Pass1!')),
      );
      statuses.push(...res.map((r) => r.status));
    }
    console.log(
      `spray of ${statuses.length} usernames from one IP:`,
      tally(statuses),
      `${verify.mock.calls.length} checks`,
    );
    expect(verify.mock.calls.length).toBeLessThanOrEqual(LOGIN_FAILURES_PER_IP);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_FAILURES_PER_IP);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);

    // Another account from the same IP, right password: still paused. From another IP it works.
    const res = await login(app, ip, username, PASSWORD);
    expectThrottled(res);
    await login(app, freshIp(), username, PASSWORD).expect(200);
  });

  it('a successful login gives its IP slot back (failures, not logins, are counted)', async () => {
    const { username } = await signUp(app);
    const ip = freshIp();
    for (let i = 0; i < LOGIN_FAILURES_PER_IP + 5; i++) {
      // Sequential on purpose: each success clears the account and releases the IP slot it took.
      await login(app, ip, username, PASSWORD).expect(200);
    }
  });
});

describe('operator Basic auth throttle (e2e)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await startApp({
      TRUST_PROXY: '1',
      OPERATOR_USER: OPERATOR.user,
      OPERATOR_PASSWORD: OPERATOR.password,
    });
  });
  afterAll(() => app.close());

  it.each(['/api/metrics', '/admin/queues/'])(
    '%s: 50 concurrent wrong credentials from one IP get at most 10 checks (401), the rest 429; the right ones then 429 too',
    async (path) => {
      const ip = freshIp();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          request(app.getHttpServer())
            .get(path)
            .set('X-Forwarded-For', ip)
            .set('Authorization', basic(OPERATOR.user, `guess-${i}-xxxxxxxx`)),
        ),
      );
      const counts = tally(results.map((r) => r.status));
      console.log(`${path}: 50 concurrent wrong operator logins:`, counts);
      expect(counts[401]).toBeLessThanOrEqual(OPERATOR_FAILURES_PER_IP);
      expect(counts[429]).toBe(50 - (counts[401] ?? 0));
      for (const r of results.filter((x) => x.status === 429)) expectThrottled(r);

      const right = await request(app.getHttpServer())
        .get(path)
        .set('X-Forwarded-For', ip)
        .set('Authorization', basic(OPERATOR.user, OPERATOR.password));
      expectThrottled(right);
      await request(app.getHttpServer())
        .get(path)
        .set('X-Forwarded-For', freshIp())
        .set('Authorization', basic(OPERATOR.user, OPERATOR.password))
        .expect(200);
    },
  );

  it('a request without credentials gets the 401 challenge and counts as no guess', async () => {
    const ip = freshIp();
    for (let i = 0; i < OPERATOR_FAILURES_PER_IP + 5; i++) {
      const res = await request(app.getHttpServer()).get('/admin/queues/').set('X-Forwarded-For', ip);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Basic /);
    }
    await request(app.getHttpServer())
      .get('/api/metrics')
      .set('X-Forwarded-For', ip)
      .set('Authorization', basic(OPERATOR.user, OPERATOR.password))
      .expect(200);
  });
});

describe('sign-up throttle under concurrency (e2e)', () => {
  const LIMIT = 10;
  let app: INestApplication;
  const register = (ip: string, username: string) =>
    request(app.getHttpServer())
      .post('/api/register')
      .set(H)
      .set('X-Forwarded-For', ip)
      .send({ username, email: `${username}@example.com`, password: PASSWORD });
  const names = (n: number) => Array.from({ length: n }, () => `st_${randomBytes(5).toString('hex')}`);

  beforeAll(async () => {
    app = await startApp({ TRUST_PROXY: '1', REGISTRATIONS_PER_IP_PER_HOUR: String(LIMIT) });
  });
  afterAll(() => app.close());

  it(`50 concurrent sign-ups from one address create exactly ${LIMIT} accounts (issue 28: only 3 or 4 were); the rest 429`, async () => {
    const ip = freshIp();
    const usernames = names(50);
    const results = await Promise.all(usernames.map((u) => register(ip, u)));
    const counts = tally(results.map((r) => r.status));
    console.log('50 concurrent sign-ups from one address:', counts);
    expect(counts).toEqual({ 201: LIMIT, 429: 50 - LIMIT });
    for (const r of results.filter((x) => x.status === 429)) {
      expect(r.body).toEqual({
        code: 'TOO_MANY_REQUESTS',
        error: 'Too many sign-ups from this network. Try again in 60 minutes.',
      });
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(3500);
    }
    const [{ n }] = (await app
      .get(DataSource)
      .query('SELECT count(*)::int AS n FROM users WHERE username = ANY($1)', [usernames])) as {
      n: number;
    }[];
    expect(n).toBe(LIMIT);
    // The address stays paused; another one signs up as usual.
    await register(ip, names(1)[0]).expect(429);
    await register(freshIp(), names(1)[0]).expect(201);
  });

  it('counts attempts, refused ones not: a taken name uses a slot, a 429 does not', async () => {
    const ip = freshIp();
    const [taken] = names(1);
    await register(freshIp(), taken).expect(201);
    // One "already exists" and LIMIT - 1 new accounts use the LIMIT attempts.
    await register(ip, taken).expect(409);
    for (const u of names(LIMIT - 1)) await register(ip, u).expect(201);
    await register(ip, names(1)[0]).expect(429);
  });
});
