import { rmSync } from 'node:fs';
import IORedis from 'ioredis';
import { Client } from 'pg';
import { clearTestEnvFile, loadTestEnv } from './test-env';

/** Drops the run's database and every test file's copy of it, and deletes every Redis key under its prefix. */
export default async function globalTeardown(): Promise<void> {
  const env = loadTestEnv();
  const pg = new Client({ connectionString: env.ADMIN_DATABASE_URL });
  await pg.connect();
  try {
    const copies = (await pg.query(`SELECT datname FROM pg_database WHERE left(datname, $1) = $2`, [
      env.DATABASE_NAME.length + 2,
      `${env.DATABASE_NAME}_f`,
    ])) as { rows: { datname: string }[] };
    for (const { datname } of copies.rows)
      await pg.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await pg.query(`DROP DATABASE IF EXISTS "${env.DATABASE_NAME}" WITH (FORCE)`);
  } finally {
    await pg.end();
  }
  const redis = new IORedis(env.REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${env.REDIS_PREFIX}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  rmSync(clearTestEnvFile(), { force: true });
}
