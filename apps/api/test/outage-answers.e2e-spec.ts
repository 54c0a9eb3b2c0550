import type { INestApplication } from '@nestjs/common';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { ensureDatabase, runMigrations } from '../../../libs/db/src/data-source-options';
import { freePort } from '../../../bench/support/stack';
import { H, signUp, startApp } from './support/api-test-app';
import { until } from './support/poll';

// Issue 28: a request that fails because Postgres is unreachable answers 503 `{ error, code }` with no host,
// port or driver text, and the api serves again once Postgres is back, without a restart. The error filter
// knows an outage by the error's codes and classes; for a driver error with neither (pg-pool's connect
// timeout when the server accepts but never answers) it asks Postgres before answering 500. The api runs
// against a Postgres of this file's own, which the test stops, freezes and brings back.

jest.setTimeout(120_000);

const PG_BIN = (() => {
  const versions = execFileSync('ls', ['/usr/lib/postgresql']).toString().trim().split('\n').sort();
  return `/usr/lib/postgresql/${versions[versions.length - 1]}/bin`;
})();

/** initdb and pg_ctl refuse root: run them as the postgres user when we are root. */
function asPostgres(cmd: string, args: string[]): void {
  const root = process.getuid?.() === 0;
  execFileSync(root ? 'runuser' : cmd, root ? ['-u', 'postgres', '--', cmd, ...args] : args, {
    stdio: 'ignore',
  });
}

class OwnPostgres {
  readonly dir = mkdtempSync(join(tmpdir(), 'csvm-outage-pg-'));
  constructor(readonly port: number) {
    chmodSync(this.dir, 0o777);
    asPostgres(`${PG_BIN}/initdb`, ['-D', `${this.dir}/data`, '-U', 'postgres', '--auth=trust']);
  }
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/csvmapper`;
  }
  start(): void {
    asPostgres(`${PG_BIN}/pg_ctl`, [
      ...['-D', `${this.dir}/data`, '-l', `${this.dir}/log`, '-w', '-o'],
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  }
  stop(): void {
    asPostgres(`${PG_BIN}/pg_ctl`, ['-D', `${this.dir}/data`, '-m', 'fast', '-w', 'stop']);
  }
  get postmasterPid(): number {
    return Number(readFileSync(`${this.dir}/data/postmaster.pid`, 'utf8').split('\n')[0]);
  }
  destroy(): void {
    try {
      process.kill(this.postmasterPid, 'SIGCONT');
      this.stop();
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

describe('requests while Postgres is unreachable (e2e, own Postgres)', () => {
  let pg: OwnPostgres;
  let app: INestApplication;
  let key: string;
  const mappings = () =>
    request(app.getHttpServer()).get('/api/mappings').set('Authorization', `Bearer ${key}`);

  beforeAll(async () => {
    pg = new OwnPostgres(await freePort());
    pg.start();
    await ensureDatabase(pg.url);
    await runMigrations(pg.url);
    app = await startApp({ DATABASE_URL: pg.url, LOG_LEVEL: 'silent' });
    const { agent } = await signUp(app, 'business');
    key = (await agent.post('/api/api-keys').set(H).send({ name: 'outage' }).expect(201)).body.key;
    await mappings().expect(200);
  });
  afterAll(async () => {
    pg?.destroy();
    await app?.close().catch(() => undefined);
  });

  /** The answer names no host, port or driver: only `{ error, code }` for people. */
  function expectCleanOutage(res: request.Response): void {
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: expect.stringMatching(/try again/i), code: 'SERVICE_UNAVAILABLE' });
    expect(res.text).not.toMatch(
      new RegExp(`127\\.0\\.0\\.1|${pg.port}|ECONN|timeout exceeded|postgres`, 'i'),
    );
  }

  it('answers 503 while Postgres is stopped, then 200 once it is back', async () => {
    pg.stop();
    expectCleanOutage(await mappings());
    pg.start();
    await until('the api to serve again', async () => (await mappings()).status === 200, 30_000, 250);
  });

  it('answers 503 when Postgres accepts connections but never answers (a connect timeout, no error code)', async () => {
    const admin = new Client({ connectionString: pg.url });
    await admin.connect();
    try {
      // Frozen postmaster: new connections are accepted by the kernel and then wait; the api's pooled
      // connections are ended, so its next query needs a new one and pg-pool gives up after 5 s.
      process.kill(pg.postmasterPid, 'SIGSTOP');
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      );
      expectCleanOutage(await mappings());
    } finally {
      process.kill(pg.postmasterPid, 'SIGCONT');
      await admin.end().catch(() => undefined);
    }
    await until('the api to serve again', async () => (await mappings()).status === 200, 30_000, 250);
  });
});
