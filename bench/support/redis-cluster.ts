// A throwaway Redis Cluster for tests and the scale simulation: `masters` redis-server processes in
// cluster mode on free ports (nothing on disk beyond a temp folder for nodes.conf), joined with
// `redis-cli --cluster create`, ready when every node reports cluster_state:ok.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import IORedis from 'ioredis';
import { freePort } from './stack';

const run = promisify(execFile);

export interface RedisCluster {
  nodes: Array<{ host: string; port: number }>;
  /** The value for REDIS_CLUSTER_NODES. */
  nodesEnv: string;
  /** used_memory_peak of every master, in bytes. */
  peakMemory(): Promise<number[]>;
  /** Keys held by each master. */
  keyCounts(): Promise<number[]>;
  stop(): Promise<void>;
}

async function info(port: number, section: string): Promise<string> {
  const { stdout } = await run('redis-cli', ['-p', String(port), 'info', section]);
  return stdout;
}

export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'csvm-redis-cluster-'));
  const procs: ChildProcess[] = [];
  const nodes: Array<{ host: string; port: number }> = [];
  const stop = async () => {
    for (const p of procs) if (p.exitCode === null) p.kill('SIGTERM');
    await Promise.all(
      procs.map((p) => (p.exitCode !== null ? undefined : new Promise((r) => p.once('exit', r)))),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters; i++) {
      const port = await freePort();
      const busPort = await freePort();
      // Each process listens before the next free port is picked, so two nodes never get the same one.
      const proc = spawnRedisServer(port, [
        '--cluster-port',
        String(busPort),
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        '5000',
        '--dir',
        dir,
      ]);
      procs.push(proc);
      nodes.push({ host: '127.0.0.1', port });
      await untilPong(port, proc);
    }
    await run('redis-cli', [
      '--cluster',
      'create',
      ...nodes.map((n) => `${n.host}:${n.port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    for (let t = 0; ; t++) {
      const states = await Promise.all(
        nodes.map((n) => run('redis-cli', ['-p', String(n.port), 'cluster', 'info']).then((r) => r.stdout)),
      );
      if (states.every((s) => s.includes('cluster_state:ok'))) break;
      if (t > 200) throw new Error('the Redis Cluster did not reach cluster_state:ok');
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    nodes,
    nodesEnv: nodes.map((n) => `${n.host}:${n.port}`).join(','),
    async peakMemory() {
      return Promise.all(
        nodes.map(async (n) => Number(/used_memory_peak:(\d+)/.exec(await info(n.port, 'memory'))?.[1] ?? 0)),
      );
    },
    async keyCounts() {
      return Promise.all(
        nodes.map(async (n) => {
          const r = new IORedis(n.port, n.host, { maxRetriesPerRequest: 1 });
          try {
            return await r.dbsize();
          } finally {
            r.disconnect();
          }
        }),
      );
    },
    stop,
  };
}

/**
 * A redis-server on `port` of 127.0.0.1 keeping nothing on disk, with the eviction policy BullMQ needs;
 * `extra` arguments follow (a cluster node's).
 */
export function spawnRedisServer(port: number, extra: string[] = []): ChildProcess {
  return spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
      ...extra,
    ],
    { stdio: 'ignore' },
  );
}

/** Waits until the redis-server on `port` answers PING (every 50 ms, about 5 s at most, or until it exits). */
async function untilPong(port: number, proc: ChildProcess): Promise<void> {
  for (let t = 0; ; t++) {
    const pong = await run('redis-cli', ['-p', String(port), 'ping']).then(
      (r) => r.stdout.trim(),
      () => '',
    );
    if (pong === 'PONG') return;
    if (t > 100 || proc.exitCode !== null) throw new Error(`redis-server on ${port} did not start`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One private redis-server (not a cluster) on a free port, so its memory figures are this run's alone. */
export async function startRedisServer(): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  const port = await freePort();
  const proc = spawnRedisServer(port);
  await untilPong(port, proc);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      if (proc.exitCode === null) await new Promise((r) => proc.once('exit', r));
    },
  };
}
