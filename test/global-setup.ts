import { ensureDatabase, runMigrations } from '../libs/db/src/data-source-options';
import { newTestEnv, saveTestEnv, type TestEnv } from './test-env';
import { startContainersIfAsked } from './containers';

/**
 * Creates the run's database, migrated once: every test file gets a copy of it (test/file-database.ts), so no
 * file migrates and files may run in parallel. Also picks the run's Redis key prefix.
 */
export default async function globalSetup(): Promise<void> {
  let env: TestEnv = newTestEnv();
  const containers = await startContainersIfAsked();
  if (containers) {
    const db = new URL(containers.DATABASE_URL);
    db.pathname = `/${env.DATABASE_NAME}`;
    env = { ...env, ...containers, DATABASE_URL: db.toString() };
  }
  await ensureDatabase(env.DATABASE_URL);
  await runMigrations(env.DATABASE_URL);
  saveTestEnv(env);
}
