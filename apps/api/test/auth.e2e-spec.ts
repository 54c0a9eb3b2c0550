import type { INestApplication } from '@nestjs/common';
import { PasswordMessages } from '@csv-mapper/domain';
import { slotKey } from '@csv-mapper/queue';
import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { COMMON_PASSWORDS } from '../../../libs/domain/src/common-passwords';
import { REDIS } from '../src/redis/redis.module';
import { startApp } from './support/api-test-app';

// Sign-up, login, sessions, CSRF and throttling against the real Postgres and Redis.

const XRW = { 'X-Requested-With': 'csv-mapper' };
const PASSWORD = 'Tr1cky-Mapper!';

function newUser(overrides: Record<string, string> = {}) {
  const tag = randomBytes(5).toString('hex');
  return {
    username: `user_${tag}`,
    email: `User_${tag}@Example.com`,
    password: PASSWORD,
    firstName: 'Ana',
    lastName: 'Lopez',
    ...overrides,
  };
}

/** The session id inside an express-session cookie (`s:<sid>.<signature>`). */
function sidOf(setCookie: string[] | string | undefined): string {
  const line = ([] as string[]).concat(setCookie ?? []).find((c) => c.startsWith('csvm.sid='));
  if (!line) throw new Error('no session cookie set');
  const value = decodeURIComponent(line.split(';')[0].slice('csvm.sid='.length));
  return value.slice(2, value.lastIndexOf('.'));
}

function cookieOf(setCookie: string[] | string | undefined): string {
  const line = ([] as string[]).concat(setCookie ?? []).find((c) => c.startsWith('csvm.sid='));
  if (!line) throw new Error('no session cookie set');
  return line.split(';')[0];
}

describe('auth (e2e)', () => {
  let app: INestApplication;
  let db: DataSource;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    app = await startApp();
    db = app.get(DataSource);
  });
  afterAll(() => app.close());

  async function register(body = newUser()) {
    const res = await http().post('/api/register').set(XRW).send(body);
    expect(res.status).toBe(201);
    return { body, res, cookie: cookieOf(res.headers['set-cookie']) };
  }

  describe('spec §5 rules and messages', () => {
    it.each([
      ['short', 'Ab1!xyz', PasswordMessages.tooShort],
      ['long', `Ab1!${'x'.repeat(124)}`, PasswordMessages.tooLong],
      ['no upper', 'abcdef1!x', PasswordMessages.uppercase],
      ['no lower', 'ABCDEF1!X', PasswordMessages.lowercase],
      ['no digit', 'Abcdefg!x', PasswordMessages.number],
      ['no special', 'Abcdefg1x', PasswordMessages.special],
      ['common', 'P@ssw0rd', PasswordMessages.common],
    ])('register refuses a password that is %s', async (_name, password, message) => {
      const res = await http().post('/api/register').set(XRW).send(newUser({ password })).expect(400);
      expect(res.body.code).toBe('INVALID_PASSWORD');
      expect(res.body.error).toContain(message);
      expect(res.body.details.password).toContain(message);
    });

    it('accepts 127 characters and 64-character passphrases, and never truncates', async () => {
      const long = `Ab1!${'x'.repeat(123)}`;
      expect([...long]).toHaveLength(127);
      const { body } = await register(newUser({ password: long }));
      await http()
        .post('/api/login')
        .set(XRW)
        .send({ identifier: body.username, password: long })
        .expect(200);
      // P + 'x' and P minus its last character are different passwords.
      await http()
        .post('/api/login')
        .set(XRW)
        .send({ identifier: body.username, password: long.slice(0, -1) })
        .expect(401);
    });

    it('register requires username, email and password, and a valid email', async () => {
      for (const missing of ['username', 'email', 'password']) {
        const res = await http()
          .post('/api/register')
          .set(XRW)
          .send(newUser({ [missing]: '' }))
          .expect(400);
        expect(res.body).toMatchObject({
          error: 'Please enter username, email, and password',
          code: 'VALIDATION_FAILED',
        });
      }
      const res = await http()
        .post('/api/register')
        .set(XRW)
        .send(newUser({ email: 'not-an-email' }))
        .expect(400);
      expect(res.body.error).toBe('Please enter a valid email address');
    });

    it('login requires an identifier (at most 255) and a password', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ identifier: '', password: PASSWORD }, 'Email or username is required'],
        [{ password: PASSWORD }, 'Email or username is required'],
        [{ identifier: 'x'.repeat(256), password: PASSWORD }, 'Email or username is too long'],
        [{ identifier: 'someone' }, 'Password is required'],
        [{ identifier: 'someone', password: '' }, 'Password is required'],
      ];
      for (const [body, error] of cases) {
        const res = await http().post('/api/login').set(XRW).send(body).expect(400);
        expect(res.body).toMatchObject({ error, code: 'VALIDATION_FAILED' });
      }
      const res = await http()
        .post('/api/login')
        .set(XRW)
        .send({ identifier: 'someone', password: 'short' })
        .expect(400);
      expect(res.body).toEqual({ error: 'Invalid password format', code: 'INVALID_PASSWORD_FORMAT' });
    });

    it('ships a real common-password list (≥ 3,000 entries)', () => {
      expect(COMMON_PASSWORDS.size).toBeGreaterThanOrEqual(3000);
      for (const p of ['123456', 'password', 'qwerty', 'dragon', 'p@ssw0rd'])
        expect(COMMON_PASSWORDS.has(p)).toBe(true);
    });
  });

  describe('register and login', () => {
    it('registers, answers the session user (no hash) and starts a session', async () => {
      const { body, res, cookie } = await register();
      expect(res.body).toEqual({
        id: expect.any(String),
        username: body.username,
        email: body.email,
        firstName: 'Ana',
        lastName: 'Lopez',
      });
      expect(JSON.stringify(res.body)).not.toMatch(/argon2/);
      const me = await http().get('/api/user').set('Cookie', cookie).expect(200);
      expect(me.body.username).toBe(body.username);
      const [row] = (await db.query('SELECT password FROM users WHERE id = $1', [res.body.id])) as Array<{
        password: string;
      }>;
      expect(row.password).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    });

    it('refuses a taken username or email with one message that does not say which', async () => {
      const { body } = await register();
      const byName = await http()
        .post('/api/register')
        .set(XRW)
        .send(newUser({ username: body.username.toUpperCase() }))
        .expect(409);
      const byEmail = await http()
        .post('/api/register')
        .set(XRW)
        .send(newUser({ email: body.email.toLowerCase() }))
        .expect(409);
      expect(byName.body).toEqual(byEmail.body);
      expect(byName.body.code).toBe('ACCOUNT_EXISTS');
    });

    it('logs in by email in any case and by username', async () => {
      const { body } = await register();
      for (const identifier of [body.email.toUpperCase(), body.email.toLowerCase(), body.username]) {
        const res = await http()
          .post('/api/login')
          .set(XRW)
          .send({ identifier, password: PASSWORD })
          .expect(200);
        expect(res.body.username).toBe(body.username);
        expect(res.body).not.toHaveProperty('password');
      }
    });

    it('answers a wrong password and an unknown account the same way', async () => {
      const { body } = await register();
      const wrong = await http()
        .post('/api/login')
        .set(XRW)
        .send({ identifier: body.username, password: 'Wrong-Pass1!' })
        .expect(401);
      const unknown = await http()
        .post('/api/login')
        .set(XRW)
        .send({ identifier: 'nobody_here@example.com', password: 'Wrong-Pass1!' })
        .expect(401);
      expect(wrong.body).toEqual({ error: 'Invalid username or password', code: 'INVALID_CREDENTIALS' });
      expect(unknown.body).toEqual(wrong.body);
    });

    it('GET /api/user is 401 when signed out; GET /api/login redirects to /auth', async () => {
      const res = await http().get('/api/user').expect(401);
      expect(res.body).toEqual({ error: 'Unauthorized', code: 'UNAUTHORIZED' });
      const redirect = await http().get('/api/login').expect(302);
      expect(redirect.headers.location).toBe('/auth');
    });
  });

  describe('sessions', () => {
    it('sets an HttpOnly, SameSite=Lax cookie on Path=/ with no Domain', async () => {
      const { res } = await register();
      const line = ([] as string[])
        .concat(res.headers['set-cookie'] ?? [])
        .find((c) => c.startsWith('csvm.sid='));
      expect(line).toMatch(/; HttpOnly/);
      expect(line).toMatch(/; SameSite=Lax/);
      expect(line).toMatch(/; Path=\//);
      expect(line).not.toMatch(/Domain=/i);
    });

    it('rotates the session id at login: the pre-login cookie then gets 401', async () => {
      const { body, cookie: before } = await register();
      const login = await http()
        .post('/api/login')
        .set(XRW)
        .set('Cookie', before)
        .send({ identifier: body.username, password: PASSWORD })
        .expect(200);
      const after = cookieOf(login.headers['set-cookie']);
      expect(after).not.toBe(before);
      await http().get('/api/user').set('Cookie', before).expect(401);
      await http().get('/api/user').set('Cookie', after).expect(200);
      const [{ n }] = (await db.query('SELECT count(*)::int AS n FROM sessions WHERE sid = $1', [
        sidOf(before.replace(/^csvm\.sid=/, 'csvm.sid=')),
      ])) as Array<{ n: number }>;
      expect(n).toBe(0);
    });

    it('logout deletes the session row and the old cookie gets 401', async () => {
      const { res, cookie } = await register();
      const sid = sidOf(res.headers['set-cookie']);
      await http().post('/api/logout').set(XRW).set('Cookie', cookie).expect(200);
      const rows = (await db.query('SELECT sid FROM sessions WHERE sid = $1', [sid])) as unknown[];
      expect(rows).toHaveLength(0);
      await http().get('/api/user').set('Cookie', cookie).expect(401);
    });

    it('ends a session after 30 minutes idle (store expiry, clock moved)', async () => {
      const { res, cookie } = await register();
      const sid = sidOf(res.headers['set-cookie']);
      // 29 minutes idle: still fine, and the request rolls the expiry forward.
      await db.query(`UPDATE sessions SET expire = now() + interval '1 minute' WHERE sid = $1`, [sid]);
      await http().get('/api/user').set('Cookie', cookie).expect(200);
      const [{ left }] = (await db.query(
        `SELECT extract(epoch FROM expire - now())::int AS left FROM sessions WHERE sid = $1`,
        [sid],
      )) as Array<{ left: number }>;
      expect(left).toBeGreaterThan(29 * 60);
      // 31 minutes idle: gone.
      await db.query(`UPDATE sessions SET expire = now() - interval '1 minute' WHERE sid = $1`, [sid]);
      await http().get('/api/user').set('Cookie', cookie).expect(401);
    });

    it('ends a session 12 hours after sign-in however active (clock moved)', async () => {
      const { res, cookie } = await register();
      const sid = sidOf(res.headers['set-cookie']);
      const setAuthAt = (msAgo: number) =>
        db.query(
          `UPDATE sessions SET sess = jsonb_set(sess::jsonb, '{authAt}', to_jsonb($2::bigint))::json WHERE sid = $1`,
          [sid, Date.now() - msAgo],
        );
      await setAuthAt(11.9 * 3600_000);
      await http().get('/api/user').set('Cookie', cookie).expect(200);
      await setAuthAt(12 * 3600_000 + 60_000);
      await http().get('/api/user').set('Cookie', cookie).expect(401);
      const rows = (await db.query('SELECT sid FROM sessions WHERE sid = $1', [sid])) as unknown[];
      expect(rows).toHaveLength(0);
    });
  });

  describe('CSRF and CORS', () => {
    it('refuses state-changing requests marked cross-site, from a foreign Origin, or without the app header', async () => {
      const creds = { identifier: 'someone', password: PASSWORD };
      const crossSite = await http()
        .post('/api/login')
        .set(XRW)
        .set('Sec-Fetch-Site', 'cross-site')
        .send(creds)
        .expect(403);
      expect(crossSite.body.code).toBe('CSRF_REJECTED');
      await http().post('/api/login').set(XRW).set('Origin', 'https://evil.example').send(creds).expect(403);
      await http().post('/api/login').send(creds).expect(403);
      await http().post('/api/logout').set('Sec-Fetch-Site', 'cross-site').set(XRW).expect(403);
      // Our own origin and same-origin fetches pass the check (and then fail on the credentials).
      await http().post('/api/login').set(XRW).set('Origin', 'http://localhost:3000').send(creds).expect(401);
      await http().post('/api/login').set(XRW).set('Sec-Fetch-Site', 'same-origin').send(creds).expect(401);
    });

    it('exempts Bearer-key requests (no ambient credentials) and never grants CORS', async () => {
      await http()
        .post('/api/logout')
        .set('Authorization', `Bearer csvm_${'a'.repeat(43)}`)
        .set('Sec-Fetch-Site', 'cross-site')
        .expect(200);
      const res = await http().get('/api/health').set('Origin', 'https://evil.example');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('throttling (Redis)', () => {
    it('pauses an account after 10 failures in 15 min, even from 10 rotating IPs; the right password works after the window', async () => {
      const { body } = await register();
      for (let i = 0; i < 10; i++) {
        await http()
          .post('/api/login')
          .set(XRW)
          .set('X-Forwarded-For', `203.0.113.${i + 1}`)
          .send({ identifier: i % 2 ? body.username : body.email, password: `Wrong-Pass${i}!` })
          .expect(401);
      }
      const paused = await http()
        .post('/api/login')
        .set(XRW)
        .set('X-Forwarded-For', '198.51.100.77')
        .send({ identifier: body.username, password: PASSWORD })
        .expect(429);
      expect(paused.body.code).toBe('TOO_MANY_REQUESTS');
      const retryAfter = Number(paused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      // Soft lock: a reset request is still accepted.
      await http().post('/api/request-password-reset').set(XRW).send({ email: body.email }).expect(202);
      // Move past the window: expire the counter.
      const [{ id }] = (await db.query('SELECT id FROM users WHERE username = $1', [
        body.username,
      ])) as Array<{
        id: string;
      }>;
      const redis = app.get<Redis>(REDIS);
      await redis.pexpire(slotKey(process.env.REDIS_PREFIX ?? '', 'throttle', `login-fail:${id}`), 1);
      await new Promise((r) => setTimeout(r, 20));
      await http()
        .post('/api/login')
        .set(XRW)
        .send({ identifier: body.username, password: PASSWORD })
        .expect(200);
    });

    it('counts failures for unknown accounts too (same answers as for real ones)', async () => {
      const identifier = `ghost_${randomBytes(4).toString('hex')}`;
      for (let i = 0; i < 10; i++) {
        await http().post('/api/login').set(XRW).send({ identifier, password: 'Wrong-Pass1!' }).expect(401);
      }
      await http().post('/api/login').set(XRW).send({ identifier, password: 'Wrong-Pass1!' }).expect(429);
    });
  });
});

describe('registration throttle per IP (e2e)', () => {
  let app: INestApplication | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('ignores X-Forwarded-For without a trusted proxy: rotating it opens no new bucket', async () => {
    app = await startApp({
      REGISTRATIONS_PER_IP_PER_HOUR: '3',
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}reg0-${randomBytes(3).toString('hex')}:`,
    });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await request(app.getHttpServer())
        .post('/api/register')
        .set(XRW)
        .set('X-Forwarded-For', `192.0.2.${i + 1}`)
        .send(newUser());
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
  });

  it('with TRUST_PROXY=1 only the hop the proxy added counts, so a forged prefix changes nothing', async () => {
    app = await startApp({
      TRUST_PROXY: '1',
      REGISTRATIONS_PER_IP_PER_HOUR: '2',
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}reg1-${randomBytes(3).toString('hex')}:`,
    });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await request(app.getHttpServer())
        .post('/api/register')
        .set(XRW)
        .set('X-Forwarded-For', `10.${i}.0.1, 198.51.100.9`)
        .send(newUser());
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 429, 429]);
    // A different real client (as the proxy reports it) has its own bucket.
    await request(app.getHttpServer())
      .post('/api/register')
      .set(XRW)
      .set('X-Forwarded-For', '198.51.100.10')
      .send(newUser())
      .expect(201);
  });
});

describe('session cookie in production (e2e)', () => {
  it('is __Host- prefixed and Secure behind a TLS-terminating proxy', async () => {
    const app = await startApp({
      NODE_ENV: 'production',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      TRUST_PROXY: '1',
      APP_URL: 'https://csvmapper.test',
    });
    try {
      const res = await request(app.getHttpServer())
        .post('/api/register')
        .set(XRW)
        .set('X-Forwarded-Proto', 'https')
        .send(newUser())
        .expect(201);
      const line = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0];
      expect(line).toMatch(/^__Host-csvm\.sid=/);
      expect(line).toMatch(/; Path=\//);
      expect(line).toMatch(/; HttpOnly/);
      expect(line).toMatch(/; Secure/);
      expect(line).toMatch(/; SameSite=Lax/);
      expect(line).not.toMatch(/Domain=/i);
    } finally {
      await app.close();
    }
  });
});
