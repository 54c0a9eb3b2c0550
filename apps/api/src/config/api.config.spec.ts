import { ConfigError, loadApiConfig } from './api.config';

// The environment is read with the same library as request bodies (class-validator): defaults, numbers
// from text, and one line per bad variable that never echoes a secret.
describe('api configuration', () => {
  it('fills defaults and converts numbers from the environment text', () => {
    const c = loadApiConfig({
      PORT: '4000',
      TRUST_PROXY: '1',
      HTTP_REQUEST_TIMEOUT_MS: '60000',
      SMTP_URL: '',
    });
    expect(c).toMatchObject({
      port: 4000,
      trustProxy: 1,
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/csvmapper',
      redisUrl: 'redis://127.0.0.1:6379',
      appUrl: 'http://localhost:4000',
      smtpUrl: undefined,
      registrationsPerIpPerHour: 10,
      http: { headersTimeout: 20_000, requestTimeout: 60_000, keepAliveTimeout: 65_000, checkMs: 5_000 },
    });
  });

  it('names every bad variable, one line each', () => {
    let err: unknown;
    try {
      loadApiConfig({
        PORT: 'eighty',
        REDIS_URL: 'not a url',
        NODE_ENV: 'production',
        HTTP_HEADERS_TIMEOUT_MS: '999999999',
        OPERATOR_PASSWORD: 'short',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const lines = (err as ConfigError).lines;
    expect(lines.find((l) => l.startsWith('  PORT:'))).toMatch(/integer/);
    expect(lines.find((l) => l.startsWith('  REDIS_URL:'))).toContain('must be an absolute URL');
    expect(lines.find((l) => l.startsWith('  SESSION_SECRET:'))).toContain(
      'must be set to a random secret in production',
    );
    expect(lines.find((l) => l.startsWith('  HTTP_HEADERS_TIMEOUT_MS:'))).toContain(
      'must not be longer than HTTP_REQUEST_TIMEOUT_MS',
    );
    expect(lines.find((l) => l.startsWith('  OPERATOR_PASSWORD:'))).toBe(
      '  OPERATOR_PASSWORD: must be at least 12 characters (got (hidden))',
    );
    expect(lines).toHaveLength(5);
  });

  it('keeps files in memory by default and reads the s3 settings when BLOB_STORE=s3', () => {
    expect(loadApiConfig({}).blobStore).toEqual({ driver: 'memory' });
    expect(
      loadApiConfig({
        BLOB_STORE: 's3',
        S3_BUCKET: 'csvm-files',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_FORCE_PATH_STYLE: '1',
        S3_SSE: 'none',
      }).blobStore,
    ).toEqual({
      driver: 's3',
      bucket: 'csvm-files',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      publicEndpoint: undefined,
      forcePathStyle: true,
      sse: 'none',
      keyPrefix: 'csvm/',
    });
    let err: unknown;
    try {
      loadApiConfig({ BLOB_STORE: 's3', S3_SSE: 'rot13' });
    } catch (e) {
      err = e;
    }
    const lines = (err as ConfigError).lines;
    expect(lines.find((l) => l.startsWith('  S3_BUCKET:'))).toContain('is required when BLOB_STORE=s3');
    expect(lines.find((l) => l.startsWith('  S3_SSE:'))).toBeDefined();
  });
});

// The variables the api shares with the worker are InfraEnv's (libs/queue): the same rule and message in
// both (apps/worker/src/config/worker.config.spec.ts asserts the same lines).
describe('api configuration: the variables shared with the worker', () => {
  it('refuses a bad shared variable with the shared message', () => {
    const bad = { REDIS_PREFIX: 'a b', S3_SSE: 'rot13', MAIL_FROM: '', NODE_ENV: 'staging' };
    let err: unknown;
    try {
      loadApiConfig(bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect([...(err as ConfigError).lines].sort()).toEqual([
      '  NODE_ENV: NODE_ENV must be one of the following values: development, production, test (got "staging")',
      '  REDIS_PREFIX: letters, digits, _ - : only (got "a b")',
      '  S3_SSE: S3_SSE must be one of the following values: AES256, aws:kms, none (got "rot13")',
    ]);
  });
});
