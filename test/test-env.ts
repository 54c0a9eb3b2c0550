import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Each test run gets its own database and Redis key prefix, so runs never see each other.
export interface TestEnv {
  DATABASE_URL: string;
  REDIS_URL: string;
  REDIS_PREFIX: string;
  ADMIN_DATABASE_URL: string;
  DATABASE_NAME: string;
}

const FILE = join(__dirname, '.test-env.json');

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

export function saveTestEnv(env: TestEnv): void {
  writeFileSync(FILE, JSON.stringify(env));
}

export function loadTestEnv(): TestEnv {
  if (!existsSync(FILE)) throw new Error('test/.test-env.json missing: the Jest global setup did not run');
  return JSON.parse(readFileSync(FILE, 'utf8')) as TestEnv;
}

export function clearTestEnvFile(): string {
  return FILE;
}
