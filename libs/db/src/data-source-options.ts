import { DataSource, DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/csvmapper';

/** The one data-source definition, used by Nest (api, worker), the migration script and tests. */
export function buildDataSourceOptions(url: string, extra: { poolSize?: number } = {}): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: { max: extra.poolSize ?? 10, connectionTimeoutMillis: 5000 },
  };
}

/**
 * Creates the database named in `url` when it does not exist yet, by connecting to the server's
 * `postgres` database. Safe to call on every start.
 */
export async function ensureDatabase(url: string): Promise<boolean> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_-]+$/.test(name))
    throw new Error(`Refusing to create a database with the name "${name}"`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const ds = new DataSource({
    type: 'postgres',
    url: admin.toString(),
    extra: { connectionTimeoutMillis: 5000 },
  });
  await ds.initialize();
  try {
    const rows: unknown[] = await ds.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rows.length > 0) return false;
    await ds.query(`CREATE DATABASE "${name}"`);
    return true;
  } finally {
    await ds.destroy();
  }
}

/** Runs pending migrations; returns their names. */
export async function runMigrations(url: string): Promise<string[]> {
  const ds = new DataSource(buildDataSourceOptions(url, { poolSize: 2 }));
  await ds.initialize();
  try {
    const done = await ds.runMigrations({ transaction: 'each' });
    return done.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}
