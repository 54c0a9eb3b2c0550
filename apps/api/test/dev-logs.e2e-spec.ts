import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { exited, freePort } from '../../../bench/support/stack';

// Issue 28: in development the request log is one short line a person can read (method, path, status,
// time, user) through pino-pretty; in production it stays one JSON object per request. The real api
// process, started from source, its stdout read as a terminal would show it.

jest.setTimeout(120_000);

const root = resolve(__dirname, '../../..');

async function startApi(
  env: Record<string, string>,
): Promise<{ base: string; proc: ChildProcess; out: () => string }> {
  const port = await freePort();
  const proc = spawn(process.execPath, [join(root, 'bench/support/run-ts.js'), 'apps/api/src/main.ts'], {
    cwd: root,
    // Its own Redis prefix: the sign-up throttle (per IP) must not count the other test files' sign-ups.
    env: {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: 'info',
      REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? 'csvm-test:'}dev-logs-${randomBytes(3).toString('hex')}:`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  proc.stdout?.on('data', (d: Buffer) => (text += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (text += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  const end = Date.now() + 90_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`api exited: ${text}`);
    if (Date.now() > end) throw new Error(`api did not start: ${text}`);
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { base, proc, out: () => text };
}

/** Signs up over HTTP, then reads /api/user and an unknown route; answers the username. */
async function browse(base: string, extra: Record<string, string> = {}): Promise<string> {
  const username = `dl_${randomBytes(4).toString('hex')}`;
  const reg = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'csv-mapper', ...extra },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: 'Tr1cky-Mapper!' }),
  });
  expect(reg.status).toBe(201);
  const cookie = reg.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  expect((await fetch(`${base}/api/user?page=1`, { headers: { Cookie: cookie, ...extra } })).status).toBe(
    200,
  );
  expect((await fetch(`${base}/api/nope`, { headers: extra })).status).toBe(404);
  await new Promise((r) => setTimeout(r, 300));
  return username;
}

describe('request logs a person can read (e2e)', () => {
  const procs: ChildProcess[] = [];
  afterAll(async () => {
    for (const p of procs) if (p.exitCode === null) p.kill('SIGTERM');
    await Promise.all(procs.map(exited));
  });

  it('development: one short line per request with method, path, status, time and user', async () => {
    const api = await startApi({ NODE_ENV: 'development' });
    procs.push(api.proc);
    const username = await browse(api.base);
    const lines = api.out().split('\n');
    const line = (what: string) => lines.filter((l) => l.includes(what));
    expect(line('POST /api/register')).toEqual([
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\] INFO: POST \/api\/register 201 \d+ ms$/),
    ]);
    expect(line('GET /api/user')).toEqual([
      expect.stringMatching(new RegExp(`^\\[[\\d:]+\\] INFO: GET /api/user 200 \\d+ ms ${username}$`)),
    ]);
    expect(line('GET /api/nope')).toEqual([expect.stringMatching(/INFO: GET \/api\/nope 404 \d+ ms$/)]);
    // No JSON request objects, no headers.
    expect(api.out()).not.toMatch(/"req":|user-agent|cookie/i);
  });

  it('production: one JSON object per request, as log collectors read it', async () => {
    const api = await startApi({
      NODE_ENV: 'production',
      SESSION_SECRET: randomBytes(24).toString('hex'),
      TRUST_PROXY: '1',
    });
    procs.push(api.proc);
    // Production cookies are Secure: the requests come "through" an HTTPS proxy.
    await browse(api.base, { 'X-Forwarded-Proto': 'https' });
    const requests = api
      .out()
      .split('\n')
      .filter((l) => l.startsWith('{') && l.includes('"req":'))
      .map((l) => JSON.parse(l) as { req: { method: string; url: string }; res: { statusCode: number } });
    expect(requests.map((r) => `${r.req.method} ${r.req.url} ${r.res.statusCode}`)).toEqual([
      'POST /api/register 201',
      'GET /api/user?page=1 200',
      'GET /api/nope 404',
    ]);
  });
});
