import type { INestApplication } from '@nestjs/common';
import { limitsOf } from '@csv-mapper/domain';
import { EphemeralStore } from '@csv-mapper/queue';
import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApiApp } from '../src/bootstrap';
import { loadApiConfig } from '../src/config/api.config';
import { REDIS } from '../src/redis/redis.module';

// The signed-in user's account: profile, API keys (Bearer on the published routes) and account deletion.

const XRW = { 'X-Requested-With': 'csv-mapper' };
const PASSWORD = 'Tr1cky-Mapper!';

describe('account, profile and API keys (e2e)', () => {
  let app: INestApplication;
  let db: DataSource;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    app = await createApiApp(
      loadApiConfig({ ...process.env, SKIP_REDIS_POLICY_CHECK: '1', REGISTRATIONS_PER_IP_PER_HOUR: '10000' }),
    );
    await app.init();
    db = app.get(DataSource);
  });
  afterAll(() => app.close());

  async function signUp(plan?: string) {
    const tag = randomBytes(5).toString('hex');
    const res = await http()
      .post('/api/register')
      .set(XRW)
      .send({
        username: `acct_${tag}`,
        email: `acct_${tag}@example.com`,
        password: PASSWORD,
        firstName: 'Bo',
      })
      .expect(201);
    const id = res.body.id as string;
    if (plan) await db.query('UPDATE users SET plan = $2 WHERE id = $1', [id, plan]);
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0].split(';')[0];
    return { id, cookie, email: `acct_${tag}@example.com` };
  }

  async function createKey(cookie: string, name = 'CI pipeline') {
    const res = await http().post('/api/api-keys').set(XRW).set('Cookie', cookie).send({ name }).expect(201);
    return res.body as { id: string; key: string; prefix: string; name: string; createdAt: string };
  }

  describe('profile', () => {
    it('answers the spec §3 shape with plan limits from libs/domain (-1 = unlimited)', async () => {
      const user = await signUp();
      await db.query('UPDATE users SET monthly_rows_used = 1200 WHERE id = $1', [user.id]);
      const res = await http().get('/api/user/profile').set('Cookie', user.cookie).expect(200);
      expect(res.body).toEqual({
        username: expect.stringMatching(/^acct_/),
        email: user.email,
        firstName: 'Bo',
        lastName: null,
        plan: 'free',
        planExpiresAt: null,
        subscription: null,
        usage: { savedMappings: 0, monthlyRowsUsed: 1200, maxFileSize: 1048576 },
        monthlyUsage: { used: 1200, limit: 50000, remaining: 48800 },
        planLimits: limitsOf('free'),
        team: { id: user.id, role: 'owner', readOnly: false, members: 1 },
      });
      await db.query(`UPDATE users SET plan = 'enterprise' WHERE id = $1`, [user.id]);
      const ent = await http().get('/api/user/profile').set('Cookie', user.cookie).expect(200);
      expect(ent.body.monthlyUsage).toEqual({ used: 1200, limit: -1, remaining: -1 });
      expect(ent.body.planLimits.maxSavedMappings).toBe(-1);
    });

    it('is 401 when signed out', async () => {
      const res = await http().get('/api/user/profile').expect(401);
      expect(res.body).toEqual({ error: 'Unauthorized', code: 'UNAUTHORIZED' });
    });
  });

  describe('API keys', () => {
    it('creates a csvm_ key shown once, stores only its SHA-256, lists it without the secret', async () => {
      const user = await signUp('business');
      const created = await createKey(user.cookie);
      expect(created.key).toMatch(/^csvm_[A-Za-z0-9_-]{43}$/);
      expect(created.key.startsWith(created.prefix)).toBe(true);
      const list = await http().get('/api/api-keys').set('Cookie', user.cookie).expect(200);
      expect(list.body).toEqual([
        {
          id: created.id,
          name: 'CI pipeline',
          prefix: created.prefix,
          createdAt: created.createdAt,
          lastUsedAt: null,
        },
      ]);
      const dump = JSON.stringify(await db.query('SELECT * FROM api_keys WHERE user_id = $1', [user.id]));
      expect(dump).not.toContain(created.key);
      expect(dump).toMatch(/"key_hash":"[0-9a-f]{64}"/);
    });

    it('lets a business key call a published route, records last use, and revocation bites on the next request', async () => {
      const user = await signUp('business');
      const { id, key } = await createKey(user.cookie);
      await http().get('/api/mappings').set('Authorization', `Bearer ${key}`).expect(200);
      const [{ last_used_at }] = (await db.query('SELECT last_used_at FROM api_keys WHERE id = $1', [
        id,
      ])) as Array<{
        last_used_at: Date | null;
      }>;
      expect(last_used_at).not.toBeNull();
      await http().delete(`/api/api-keys/${id}`).set(XRW).set('Cookie', user.cookie).expect(204);
      const res = await http().get('/api/mappings').set('Authorization', `Bearer ${key}`).expect(401);
      expect(res.body.error).toContain('Unauthorized');
      const list = await http().get('/api/api-keys').set('Cookie', user.cookie).expect(200);
      expect(list.body).toEqual([]);
    });

    it('refuses keys of plans without apiAccess with a clear 403, and free users cannot create keys', async () => {
      const user = await signUp('business');
      const { key } = await createKey(user.cookie);
      await db.query(`UPDATE users SET plan = 'free' WHERE id = $1`, [user.id]);
      const res = await http().get('/api/mappings').set('Authorization', `Bearer ${key}`).expect(403);
      expect(res.body.code).toBe('API_ACCESS_NOT_IN_PLAN');
      expect(res.body.error).toMatch(/Upgrade to Business or Enterprise/);
      const create = await http()
        .post('/api/api-keys')
        .set(XRW)
        .set('Cookie', user.cookie)
        .send({ name: 'x' })
        .expect(403);
      expect(create.body.code).toBe('API_ACCESS_NOT_IN_PLAN');
    });

    it('refuses a key in the query string, and keys on session-only routes', async () => {
      const user = await signUp('business');
      const { key } = await createKey(user.cookie);
      const inUrl = await http().get(`/api/mappings?api_key=${key}`).expect(401);
      expect(inUrl.body.code).toBe('API_KEY_IN_URL');
      await http().get('/api/user').set('Authorization', `Bearer ${key}`).expect(401);
      await http().get('/api/api-keys').set('Authorization', `Bearer ${key}`).expect(401);
      await http().get('/api/mappings').set('Authorization', 'Bearer csvm_not-a-real-key').expect(401);
    });

    it('validates key names and only revokes your own keys', async () => {
      const a = await signUp('business');
      const b = await signUp('business');
      const blank = await http()
        .post('/api/api-keys')
        .set(XRW)
        .set('Cookie', a.cookie)
        .send({ name: '  ' })
        .expect(400);
      expect(blank.body.error).toBe('Please enter a name for the API key');
      const { id } = await createKey(a.cookie);
      await http().delete(`/api/api-keys/${id}`).set(XRW).set('Cookie', b.cookie).expect(404);
      await http().delete(`/api/api-keys/not-a-uuid`).set(XRW).set('Cookie', b.cookie).expect(404);
    });
  });

  describe('account deletion', () => {
    it("requires the password ('Password Required' when blank) and refuses a wrong one", async () => {
      const user = await signUp();
      for (const body of [{}, { password: '   ' }]) {
        const res = await http()
          .post('/api/user/delete-account')
          .set(XRW)
          .set('Cookie', user.cookie)
          .send(body)
          .expect(400);
        expect(res.body).toEqual({ error: 'Password Required', code: 'PASSWORD_REQUIRED' });
      }
      const wrong = await http()
        .post('/api/user/delete-account')
        .set(XRW)
        .set('Cookie', user.cookie)
        .send({ password: 'Wrong-Pass1!' })
        .expect(403);
      expect(wrong.body.code).toBe('INVALID_PASSWORD');
      await http().get('/api/user').set('Cookie', user.cookie).expect(200);
    });

    it('leaves 0 rows, 0 sessions and 0 Redis blobs behind, and the old API key gets 401', async () => {
      const user = await signUp('business');
      const other = await signUp();
      // A second session of the same user, from another device.
      const second = await http()
        .post('/api/login')
        .set(XRW)
        .send({ identifier: user.email, password: PASSWORD })
        .expect(200);
      const secondCookie = ([] as string[]).concat(second.headers['set-cookie'] ?? [])[0].split(';')[0];
      const { key } = await createKey(user.cookie);
      await db.query(
        `INSERT INTO saved_mappings (user_id, name, template_headers, data_headers, mappings) VALUES ($1, 'm', '[]', '[]', '[]')`,
        [user.id],
      );
      await db.query(
        `INSERT INTO usage_history (user_id, rows_processed, file_size_bytes, filename) VALUES ($1, 10, 100, 'a.csv')`,
        [user.id],
      );
      await http().post('/api/request-password-reset').set(XRW).send({ email: user.email }).expect(202);
      const store = app.get(EphemeralStore);
      const writer = store.createWriter('upload', user.id, 'a.csv');
      await writer.write(Buffer.from('a,b\n1,2\n'));
      await writer.commit({});

      const res = await http()
        .post('/api/user/delete-account')
        .set(XRW)
        .set('Cookie', user.cookie)
        .send({ password: PASSWORD })
        .expect(200);
      expect(res.body).toEqual({ message: 'Account Deleted' });

      const counts = (await db.query(
        `SELECT (SELECT count(*) FROM users WHERE id = $1::uuid)::int AS users,
                (SELECT count(*) FROM sessions WHERE sess->>'userId' = $1::text)::int AS sessions,
                (SELECT count(*) FROM api_keys WHERE user_id = $1::uuid)::int AS keys,
                (SELECT count(*) FROM saved_mappings WHERE user_id = $1::uuid)::int AS mappings,
                (SELECT count(*) FROM usage_history WHERE user_id = $1::uuid)::int AS usage,
                (SELECT count(*) FROM password_reset_tokens WHERE user_id = $1::uuid)::int AS tokens,
                (SELECT count(*) FROM webhook_endpoints WHERE user_id = $1::uuid)::int AS webhooks`,
        [user.id],
      )) as Array<Record<string, number>>;
      expect(counts[0]).toEqual({
        users: 0,
        sessions: 0,
        keys: 0,
        mappings: 0,
        usage: 0,
        tokens: 0,
        webhooks: 0,
      });
      const redis = app.get<Redis>(REDIS);
      const left = await redis.keys(`${process.env.REDIS_PREFIX}*${user.id}*`);
      expect(left).toEqual([]);

      await http().get('/api/user').set('Cookie', user.cookie).expect(401);
      await http().get('/api/user').set('Cookie', secondCookie).expect(401);
      await http().get('/api/mappings').set('Authorization', `Bearer ${key}`).expect(401);
      // Someone else's account is untouched.
      await http().get('/api/user').set('Cookie', other.cookie).expect(200);
    });
  });
});
