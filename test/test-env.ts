import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Each test run gets its own migrated database and Redis key prefix, so runs never see each other; within a
// run, each test file gets a copy of that database (CREATE DATABASE … TEMPLATE) and a prefix of its own, so
// Jest can run files in parallel.
export interface TestEnv {
  DATABASE_URL: string;
  REDIS_URL: string;
  REDIS_PREFIX: string;
  ADMIN_DATABASE_URL: string;
  DATABASE_NAME: string;
}

// One file per Jest run (named by the run's process id), so two runs at once never share a database.
const ENV_VAR = 'CSVM_TEST_ENV_FILE';
function fileFor(pid: number): string {
  return join(__dirname, `.test-env.${pid}.json`);
}

export function newTestEnv(): TestEnv {
  const base = new URL(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  const tag = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const name = `csvmapper_test_${tag}`;
  const admin = new URL(base.toString());
  admin.pathname = '/postgres';
  const db = new URL(base.toString());
  db.pathname = `/${name}`;
  return {
    DATABASE_URL: db.toString(),
    ADMIN_DATABASE_URL: admin.toString(),
    DATABASE_NAME: name,
    REDIS_URL: process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `csvm-test-${tag}:`,
  };
}

/**
 * One test file's database and Redis prefix inside the run's: the database is a copy of the run's migrated one
 * (the template, created by fileDatabase below before the file's own hooks), the prefix starts with the run's,
 * so the global teardown finds both.
 */
export function newFileEnv(run: TestEnv): TestEnv {
  const id = randomBytes(4).toString('hex');
  const name = `${run.DATABASE_NAME}_f${id}`;
  const db = new URL(run.DATABASE_URL);
  db.pathname = `/${name}`;
  return {
    ...run,
    DATABASE_URL: db.toString(),
    DATABASE_NAME: name,
    REDIS_PREFIX: `${run.REDIS_PREFIX}f${id}:`,
  };
}

export function saveTestEnv(env: TestEnv): void {
  const file = fileFor(process.pid);
  writeFileSync(file, JSON.stringify(env));
  process.env[ENV_VAR] = file;
}

export function loadTestEnv(): TestEnv {
  const file = process.env[ENV_VAR];
  if (!file || !existsSync(file)) throw new Error('test env file missing: the Jest global setup did not run');
  return JSON.parse(readFileSync(file, 'utf8')) as TestEnv;
}

export function clearTestEnvFile(): string {
  return process.env[ENV_VAR] as string;
}
