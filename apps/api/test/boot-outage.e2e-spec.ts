import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { exited, freePort } from '../../../bench/support/stack';
import { until } from './support/poll';

// Issue 28: the api starts while Redis is down — it answers 503 `{ error, code }` (not a refused
// connection, not an exit) until Redis is there, then serves. The real api process, started from source.

jest.setTimeout(90_000);

const root = resolve(__dirname, '../../..');

async function health(base: string): Promise<{ status: number; body: unknown } | null> {
  try {
    const res = await fetch(`${base}/api/health`);
    return { status: res.status, body: await res.json() };
  } catch {
    return null;
  }
}

describe('the api boots while Redis is down', () => {
  let api: ChildProcess | undefined;
  let redis: ChildProcess | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'csvm-boot-redis-'));
  afterAll(async () => {
    for (const p of [api, redis]) if (p && p.exitCode === null) p.kill('SIGTERM');
    await Promise.all([api, redis].filter((p): p is ChildProcess => !!p).map(exited));
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 SERVICE_UNAVAILABLE until Redis answers, then 200 without a restart', async () => {
    const [port, redisPort] = [await freePort(), await freePort()];
    const base = `http://127.0.0.1:${port}`;
    api = spawn(process.execPath, [join(root, 'bench/support/run-ts.js'), 'apps/api/src/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        LOG_LEVEL: 'warn',
        ENABLE_CRON: '0',
      },
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    const waiting = await until(
      'the api to answer',
      async () => (await health(base)) ?? undefined,
      60_000,
      200,
    );
    expect(api.exitCode).toBeNull();
    expect(waiting).toEqual({
      status: 503,
      body: { error: expect.stringMatching(/Try again/), code: 'SERVICE_UNAVAILABLE' },
    });
    redis = spawn(
      'redis-server',
      ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    );
    const up = await until(
      'the api to be healthy',
      async () => {
        const h = await health(base);
        return h?.status === 200 ? h : undefined;
      },
      60_000,
      200,
    );
    expect(up.body).toMatchObject({ status: 'ok' });
    expect(api.exitCode).toBeNull();
  });
});
