// A Postgres of a test's or a script's own: its own temp dir and port, started, stopped (or frozen with
// SIGSTOP on `postmasterPid`) and destroyed at will. Used by apps/api/test/outage-answers.e2e-spec.ts and
// scripts/chaos/chaos.ts (`npm run chaos`).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PG_BIN = (() => {
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

export interface OwnPostgresOptions {
  /** The temp dir's name prefix, e.g. 'csvm-chaos-pg-'. */
  tmpPrefix: string;
  /** More initdb arguments, e.g. ['-E', 'UTF8']. */
  initdbArgs?: string[];
  /** More server settings for `postgres -o`, e.g. '-c max_connections=200'. */
  serverSettings?: string;
}

export class OwnPostgres {
  readonly dir: string;
  private readonly serverSettings: string;
  constructor(
    readonly port: number,
    options: OwnPostgresOptions,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), options.tmpPrefix));
    this.serverSettings = options.serverSettings ? ` ${options.serverSettings}` : '';
    chmodSync(this.dir, 0o777);
    asPostgres(`${PG_BIN}/initdb`, [
      ...['-D', `${this.dir}/data`, '-U', 'postgres', '--auth=trust'],
      ...(options.initdbArgs ?? []),
    ]);
  }
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/csvmapper`;
  }
  start(): void {
    asPostgres(`${PG_BIN}/pg_ctl`, [
      ...['-D', `${this.dir}/data`, '-l', `${this.dir}/log`, '-w', '-o'],
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1${this.serverSettings} -c fsync=off`,
      'start',
    ]);
  }
  stop(): void {
    asPostgres(`${PG_BIN}/pg_ctl`, ['-D', `${this.dir}/data`, '-m', 'fast', '-w', 'stop']);
  }
  get postmasterPid(): number {
    return Number(readFileSync(`${this.dir}/data/postmaster.pid`, 'utf8').split('\n')[0]);
  }
  /** Stops the server (thawing it first if it was frozen) and removes its dir. */
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
