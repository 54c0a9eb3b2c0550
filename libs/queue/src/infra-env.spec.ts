import { readEnv } from '@csv-mapper/contracts';
import { blobStoreSettings, InfraConfig, InfraEnv, redisSettings, stripeKeyAndPrices } from './infra-env';

// The variables the api and the worker share are declared once; each app's class extends InfraEnv.
describe('InfraEnv (the variables api and worker share)', () => {
  it('fills the shared defaults', () => {
    const read = readEnv(InfraEnv, {});
    expect(read.problems).toEqual([]);
    const e = read.value as InfraEnv;
    expect(redisSettings(e)).toEqual({
      redisUrl: 'redis://127.0.0.1:6379',
      redisClusterNodes: undefined,
      redisPrefix: 'csvm:',
      checkRedisPolicy: true,
    });
    expect(e.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/csvmapper');
    expect(blobStoreSettings(e)).toEqual({ driver: 'memory' });
    expect(stripeKeyAndPrices(e)).toBeNull();
  });

  it('names each bad shared variable, one line each', () => {
    const read = readEnv(InfraEnv, {
      REDIS_PREFIX: 'a b',
      REDIS_CLUSTER_NODES: 'nohost',
      LOG_LEVEL: 'loud',
      STRIPE_SECRET_KEY: 'sk_test_1',
    });
    expect(read.value).toBeNull();
    expect([...read.problems].sort()).toEqual([
      '  LOG_LEVEL: LOG_LEVEL must be one of the following values: fatal, error, warn, info, debug, trace, silent (got "loud")',
      '  REDIS_CLUSTER_NODES: must be host:port,host:port,… (got "nohost")',
      '  REDIS_PREFIX: letters, digits, _ - : only (got "a b")',
      '  STRIPE_PRICE_BUSINESS: is required when STRIPE_SECRET_KEY is set; must be a Stripe price id (price_…) (got null)',
      '  STRIPE_PRICE_PRO: is required when STRIPE_SECRET_KEY is set; must be a Stripe price id (price_…) (got null)',
    ]);
  });

  it('InfraConfig holds the shared settings both apps read from them', () => {
    const read = readEnv(InfraEnv, {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      REDIS_PREFIX: 'x:',
      SKIP_REDIS_POLICY_CHECK: '1',
      SMTP_URL: 'smtp://127.0.0.1:2525',
    });
    expect(read.problems).toEqual([]);
    expect({ ...new InfraConfig(read.value as InfraEnv) }).toEqual({
      env: 'test',
      logLevel: 'warn',
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/csvmapper',
      redisUrl: 'redis://127.0.0.1:6379',
      redisClusterNodes: undefined,
      redisPrefix: 'x:',
      checkRedisPolicy: false,
      blobStore: { driver: 'memory' },
      smtpUrl: 'smtp://127.0.0.1:2525',
      mailFrom: 'CSV Mapper <no-reply@csvmapper.app>',
    });
  });
});
