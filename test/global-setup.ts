import { ensureDatabase, runMigrations } from '../libs/db/src/data-source-options';
import { newTestEnv, saveTestEnv, type TestEnv } from './test-env';
import { startContainersIfAsked } from './containers';

/** Creates a fresh database (migrated) and picks a Redis key prefix for this run. */
export default async function globalSetup(): Promise<void> {
  let env: TestEnv = newTestEnv();
  const containers = await startContainersIfAsked();
  if (containers) env = { ...env, ...containers };
  await ensureDatabase(env.DATABASE_URL);
  await runMigrations(env.DATABASE_URL);
  saveTestEnv(env);
}
