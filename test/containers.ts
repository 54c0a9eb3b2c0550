/**
 * With TEST_CONTAINERS=1 and a Docker engine, Postgres and Redis run in throwaway containers;
 * otherwise (no Docker on these machines) the local services are used.
 */
export async function startContainersIfAsked(): Promise<{
  DATABASE_URL: string;
  ADMIN_DATABASE_URL: string;
  REDIS_URL: string;
} | null> {
  if (process.env.TEST_CONTAINERS !== '1') return null;
  try {
    const { GenericContainer } = await import('testcontainers');
    const pg = await new GenericContainer('postgres:16-alpine')
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withExposedPorts(5432)
      .start();
    const redis = await new GenericContainer('redis:7-alpine')
      .withCommand(['redis-server', '--maxmemory-policy', 'noeviction'])
      .withExposedPorts(6379)
      .start();
    const host = pg.getHost();
    const pgPort = pg.getMappedPort(5432);
    return {
      DATABASE_URL: `postgres://postgres@${host}:${pgPort}/csvmapper_test`,
      ADMIN_DATABASE_URL: `postgres://postgres@${host}:${pgPort}/postgres`,
      REDIS_URL: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
    };
  } catch (err) {
    console.warn(
      `TEST_CONTAINERS=1 but containers could not start (${(err as Error).message}); using local services`,
    );
    return null;
  }
}
