import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { REGISTRATION_CONFLICTS_PER_IP } from '../src/auth/auth.service';
import { H, startApp } from './support/api-test-app';

// Sign-up enumeration (issue 18): the spec's sign-up signs the new user in at once, so a taken email keeps
// its 409; instead one network gets only REGISTRATION_CONFLICTS_PER_IP such answers per hour, even when
// the probes are sent all at once, and then its sign-ups pause.

const PASSWORD = 'Tr1cky-Mapper!';

function newUser(overrides: Record<string, string> = {}) {
  const tag = randomBytes(5).toString('hex');
  return { username: `su_${tag}`, email: `su_${tag}@example.com`, password: PASSWORD, ...overrides };
}

/** A client address of its own per test (TRUST_PROXY=1). */
function freshIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

describe('sign-up enumeration limit (e2e)', () => {
  let app: INestApplication;
  const register = (ip: string, body: Record<string, string>) =>
    request(app.getHttpServer()).post('/api/register').set(H).set('X-Forwarded-For', ip).send(body);

  beforeAll(async () => {
    app = await startApp({ TRUST_PROXY: '1' });
  });
  afterAll(() => app.close());

  it('20 concurrent sign-ups probing known emails get at most 3 "already exists" answers; the rest 429', async () => {
    const known = newUser();
    await register(freshIp(), known).expect(201);
    const ip = freshIp();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => register(ip, newUser({ email: known.email.toUpperCase() }))),
    );
    const statuses = results.map((r) => r.status);
    console.log('20 concurrent probes of a known email:', {
      409: statuses.filter((s) => s === 409).length,
      429: statuses.filter((s) => s === 429).length,
    });
    expect(statuses.filter((s) => s === 409)).toHaveLength(REGISTRATION_CONFLICTS_PER_IP);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - REGISTRATION_CONFLICTS_PER_IP);
    const conflict = results.find((r) => r.status === 409);
    expect(conflict?.body.code).toBe('ACCOUNT_EXISTS');
    for (const r of results.filter((x) => x.status === 429)) {
      expect(r.body.code).toBe('TOO_MANY_REQUESTS');
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(3600);
    }
    // The pause covers every sign-up from that network; another network signs up as usual.
    await register(ip, newUser()).expect(429);
    await register(freshIp(), newUser()).expect(201);
  });

  it('new sign-ups do not use the budget: more than 3 in a row from one network all succeed', async () => {
    const ip = freshIp();
    for (let i = 0; i < REGISTRATION_CONFLICTS_PER_IP + 2; i++) await register(ip, newUser()).expect(201);
    await register(ip, newUser()).expect(201);
  });
});
