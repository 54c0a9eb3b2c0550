import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { startApp } from './support/api-test-app';

// Two api instances on one Postgres and Redis, as behind a load balancer: a session made on one is good on
// the other, and logout, a password reset or the idle expiry end it on both at once (the next request on
// the other instance, with no wait). Also: a busy session's row is not rewritten on every request, yet its
// idle expiry still moves forward.

const XRW = { 'X-Requested-With': 'csv-mapper' };
const PASSWORD = 'Tr1cky-Mapper!';

/** A minimal SMTP inbox for the reset mail. */
function inbox() {
  const mails: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push(
          Buffer.concat(chunks)
            .toString('utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=3D/g, '='),
        );
        done();
      });
    },
  });
  return {
    mails,
    listen: () =>
      new Promise<number>((r) =>
        server.listen(0, '127.0.0.1', () => r((server.server.address() as AddressInfo).port)),
      ),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('sessions across two api instances (real Postgres, Redis, HTTP)', () => {
  let a: INestApplication;
  let b: INestApplication;
  let db: DataSource;
  const smtp = inbox();

  beforeAll(async () => {
    const port = await smtp.listen();
    const env = { SMTP_URL: `smtp://127.0.0.1:${port}`, APP_URL: 'https://csvmapper.test' };
    a = await startApp(env);
    b = await startApp(env);
    db = a.get(DataSource);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await smtp.close();
  });

  async function register(on: INestApplication) {
    const tag = randomBytes(5).toString('hex');
    const user = { username: `multi_${tag}`, email: `multi_${tag}@example.com`, password: PASSWORD };
    const res = await request(on.getHttpServer()).post('/api/register').set(XRW).send(user).expect(201);
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0].split(';')[0];
    const sid = decodeURIComponent(cookie.split('=')[1]).slice(2).split('.')[0];
    return { ...user, cookie, sid };
  }
  const get = (on: INestApplication, cookie: string) =>
    request(on.getHttpServer()).get('/api/user').set('Cookie', cookie);

  it('a session made on A works on B; logout on A ends it on B at once', async () => {
    const user = await register(a);
    expect((await get(b, user.cookie).expect(200)).body.username).toBe(user.username);
    await get(a, user.cookie).expect(200);
    await request(a.getHttpServer()).post('/api/logout').set(XRW).set('Cookie', user.cookie).expect(200);
    await get(b, user.cookie).expect(401);
    await get(a, user.cookie).expect(401);
  });

  it('a password reset on A ends every session of the user on B at once', async () => {
    const user = await register(a);
    const other = await request(b.getHttpServer())
      .post('/api/login')
      .set(XRW)
      .send({ identifier: user.username, password: PASSWORD })
      .expect(200);
    const second = ([] as string[]).concat(other.headers['set-cookie'] ?? [])[0].split(';')[0];
    // Both sessions are in use on both instances.
    for (const on of [a, b]) for (const c of [user.cookie, second]) await get(on, c).expect(200);

    await request(a.getHttpServer())
      .post('/api/request-password-reset')
      .set(XRW)
      .send({ email: user.email })
      .expect(202);
    let mail: string | undefined;
    for (let i = 0; i < 50 && !mail; i++) {
      mail = smtp.mails.find((m) => m.includes(user.email));
      if (!mail) await new Promise((r) => setTimeout(r, 100));
    }
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail ?? '')?.[1];
    expect(token).toBeDefined();
    await request(a.getHttpServer())
      .post('/api/reset-password')
      .set(XRW)
      .send({ token, password: 'N3w-Secret-Pass!' })
      .expect(200);
    for (const on of [b, a]) for (const c of [user.cookie, second]) await get(on, c).expect(401);
  });

  it('an idle-expired session is refused on both instances, even right after they served it', async () => {
    const user = await register(a);
    await get(a, user.cookie).expect(200);
    await get(b, user.cookie).expect(200);
    await db.query(`UPDATE sessions SET expire = now() - interval '1 second' WHERE sid = $1`, [user.sid]);
    await get(b, user.cookie).expect(401);
    await get(a, user.cookie).expect(401);
  });

  it('busy sessions are not rewritten on every request, and a stale idle expiry still moves forward', async () => {
    const user = await register(a);
    const expire = async () =>
      (
        (await db.query(`SELECT extract(epoch FROM expire)::float8 AS e FROM sessions WHERE sid = $1`, [
          user.sid,
        ])) as Array<{ e: number }>
      )[0].e;
    // Fresh from sign-in: requests on either instance leave the row alone (no write per request)…
    await db.query(`UPDATE sessions SET expire = expire - interval '10 seconds' WHERE sid = $1`, [user.sid]);
    const before = await expire();
    for (let i = 0; i < 5; i++) {
      await get(a, user.cookie).expect(200);
      await get(b, user.cookie).expect(200);
    }
    expect(await expire()).toBe(before);
    // …but once the stored expiry is more than a minute behind a full idle period, the next request moves it.
    await db.query(`UPDATE sessions SET expire = now() + interval '25 minutes' WHERE sid = $1`, [user.sid]);
    await get(b, user.cookie).expect(200);
    const [{ left }] = (await db.query(
      `SELECT extract(epoch FROM expire - now())::int AS left FROM sessions WHERE sid = $1`,
      [user.sid],
    )) as Array<{ left: number }>;
    expect(left).toBeGreaterThan(29 * 60);
  });
});
