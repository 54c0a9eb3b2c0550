import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import IORedis from 'ioredis';
import { exited, freePort } from '../../../bench/support/stack';
import { until } from '../../api/test/support/poll';

// Issue 28: the worker refuses to start on a Redis whose maxmemory-policy evicts keys (BullMQ would lose
// jobs), as the api does; it used to start and serve. The real worker process, started from source, on a
// Redis of its own (the machine's Redis is shared by every test run and is never reconfigured here).

jest.setTimeout(90_000);

const root = resolve(__dirname, '../../..');

interface Run {
  proc: ChildProcess;
  output: () => string;
}

function startWorker(redisPort: number): Run {
  const proc = spawn(process.execPath, [join(root, 'bench/support/run-ts.js'), 'apps/worker/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      SKIP_REDIS_POLICY_CHECK: '0',
      ENABLE_CRON: '0',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  proc.stdout?.on('data', (d: Buffer) => (text += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (text += d.toString()));
  return { proc, output: () => text };
}

describe('the worker and an evicting Redis', () => {
  let redis: ChildProcess;
  let redisPort: number;
  let client: IORedis;
  const workers: ChildProcess[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'csvm-policy-redis-'));

  beforeAll(async () => {
    redisPort = await freePort();
    redis = spawn(
      'redis-server',
      [
        ...['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        ...['--dir', dir, '--maxmemory-policy', 'allkeys-lru'],
      ],
      { stdio: 'ignore' },
    );
    client = new IORedis(redisPort, '127.0.0.1', { maxRetriesPerRequest: null });
    await client.ping();
  });
  afterAll(async () => {
    for (const p of workers) if (p.exitCode === null) p.kill('SIGTERM');
    await Promise.all(workers.map(exited));
    client.disconnect();
    redis.kill('SIGTERM');
    await exited(redis);
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 1 with one line naming the policy and the fix, and serves nothing', async () => {
    const { proc, output } = startWorker(redisPort);
    workers.push(proc);
    await exited(proc);
    expect(proc.exitCode).toBe(1);
    expect(output()).toContain(
      'worker: Redis maxmemory-policy is "allkeys-lru" but must be "noeviction" (BullMQ would lose jobs). ' +
        'Run: redis-cli CONFIG SET maxmemory-policy noeviction',
    );
    expect(output()).not.toContain('worker ready');
  });

  it('starts once the policy is noeviction', async () => {
    await client.config('SET', 'maxmemory-policy', 'noeviction');
    const { proc, output } = startWorker(redisPort);
    workers.push(proc);
    await until('worker ready', () => output().includes('worker ready') || proc.exitCode !== null, 60_000);
    expect(proc.exitCode).toBeNull();
    proc.kill('SIGTERM');
    await exited(proc);
  });
});
