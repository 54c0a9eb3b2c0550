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
});
