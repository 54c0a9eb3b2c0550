import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { H, startApp } from './support/api-test-app';

// Secrets never reach the log (issue 18): the api runs with its real logger at info level; what the logger
// writes to stdout is captured, and every secret sent in each form must be absent from it.

/**
 * Collects what is written to stdout instead of printing it. Installed before the app starts: pino then
 * sees a replaced `process.stdout.write` and writes its lines through it (pino/lib/tools.js).
 */
function captureStdout(): { text: () => string; restore: () => void } {
  const chunks: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation(((
    chunk: unknown,
    ...rest: unknown[]
  ) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    if (cb) process.nextTick(cb);
    return true;
  }) as typeof process.stdout.write);
  return { text: () => chunks.join(''), restore: () => spy.mockRestore() };
}

/** Percent-decodes every run of escapes (twice, for double encoding), leaving stray '%' alone. */
function decodeAll(s: string): string {
  let out = s;
  for (let i = 0; i < 2; i++) {
    out = out.replace(/(%[0-9A-Fa-f]{2})+/g, (m) => {
      try {
        return decodeURIComponent(m);
      } catch {
        return m;
      }
    });
  }
  return out;
}

const tail = () => randomBytes(32).toString('base64url'); // 43 characters, like a real key
const encodeEvery = (s: string) =>
  [...Buffer.from(s)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

describe('secrets never in the request log (e2e)', () => {
  let app: INestApplication;
  let log: ReturnType<typeof captureStdout>;

  beforeAll(async () => {
    log = captureStdout();
    app = await startApp({ LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await app.close();
    log.restore();
  });

  it('redacts keys, cookies, webhook secrets, reset and invitation tokens in every form', async () => {
    const secrets = {
      bearer: tail(),
      header: tail(),
      queryPlain: tail(),
      queryUnderscoreEncoded: tail(),
      queryAllEncoded: tail(),
      pathKey: tail(),
      cookie: tail(),
      whsecQuery: tail(),
      whsecHeader: tail(),
      resetToken: tail(),
      refererToken: tail(),
      inviteToken: tail(),
      password: `Pw-${tail()}-1!`,
      // A key sent as a parameter's name (issue 28): `?csvm_…` was logged in clear in `query`.
      queryName: tail(),
      queryNameWithValue: tail(),
      queryNameEncoded: tail(),
      headerName: tail().toLowerCase(), // header names reach the log lowercased
    };
    const http = () => request(app.getHttpServer());
    await http().get('/api/user').set('Authorization', `Bearer csvm_${secrets.bearer}`);
    await http().get('/api/user').set('X-API-Key', `csvm_${secrets.header}`);
    await http().get(`/api/jobs?api_key=csvm_${secrets.queryPlain}`);
    await http().get(`/api/jobs?key=csvm%5F${secrets.queryUnderscoreEncoded}&page=1`);
    await http().get(`/api/jobs?x=1&k=${encodeEvery(`csvm_${secrets.queryAllEncoded}`)}`);
    await http().get(`/api/api-keys/csvm_${secrets.pathKey}`);
    await http().get('/api/user').set('Cookie', `csvm.sid=s%3A${secrets.cookie}.sig`);
    await http().get(`/api/webhooks?secret=whsec_${secrets.whsecQuery}`);
    await http().get('/api/webhooks').set('X-Webhook-Secret', `whsec_${secrets.whsecHeader}`);
    await http()
      .post(`/api/reset-password?token=${secrets.resetToken}`)
      .set(H)
      .set('Referer', `http://localhost:3000/reset-password?token=${secrets.refererToken}`)
      .send({ token: secrets.resetToken, password: secrets.password });
    await http().get(`/api/invitations/accept?token=${secrets.inviteToken}&team=1`);
    await http().post('/api/login').set(H).send({ identifier: 'nobody', password: secrets.password });
    await http().get(`/api/nope?csvm_${secrets.queryName}`);
    await http().get(`/api/jobs?page=1&csvm_${secrets.queryNameWithValue}=1`);
    await http().get(`/api/nope?whsec%5F${secrets.queryNameEncoded}`);
    await http().get('/api/user').set(`csvm_${secrets.headerName}`, '1');
    await new Promise((r) => setTimeout(r, 200)); // let pino flush

    const text = log.text();
    // The capture works: every request above left a line naming its route.
    const lines = text.split('\n').filter((l) => l.includes('"req":'));
    expect(lines.length).toBeGreaterThanOrEqual(12);
    for (const route of [
      '/api/nope',
      '/api/user',
      '/api/jobs',
      '/api/webhooks',
      '/api/reset-password',
      '/api/invitations/accept',
    ]) {
      expect(text).toContain(route);
    }
    const leaked = Object.entries(secrets).filter(([, s]) => text.includes(s) || decodeAll(text).includes(s));
    expect(leaked.map(([form]) => form)).toEqual([]);
  });
});
