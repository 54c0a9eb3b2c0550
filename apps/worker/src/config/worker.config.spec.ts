import { loadWorkerConfig } from './worker.config';

describe('worker configuration', () => {
  it('fills defaults, converts numbers and reads the webhook allow-list', () => {
    const c = loadWorkerConfig({
      WEBHOOK_ALLOWED_IPS: '127.0.0.1:8080, 10.0.0.0/8',
      WEBHOOK_RETRY_SCALE: '0.001',
      ENGINE_THREADS: '2',
      WEBHOOK_DISABLE_AFTER_DAYS: '0.5',
    });
    expect(c).toMatchObject({
      concurrency: 2,
      webhookConcurrency: 16,
      engineThreads: 2,
      webhookRetryScale: 0.001,
      webhookDisableAfterMs: 12 * 3600_000,
      lockMs: 10_000,
      stalledIntervalMs: 5_000,
      appUrl: 'http://localhost:3000',
    });
    expect(c.webhookAllowedIps.map((r) => r.ports)).toEqual([[8080], [80, 443]]);
  });

  it('refuses a bad variable and says why', () => {
    expect(() => loadWorkerConfig({ WEBHOOK_ALLOWED_IPS: 'localhost' })).toThrow(
      /^Invalid worker configuration:\n {2}WEBHOOK_ALLOWED_IPS: "localhost" has no valid IP address or CIDR range \(got "localhost"\)$/,
    );
    expect(() => loadWorkerConfig({ ENGINE_THREADS: '3' })).toThrow(
      /ENGINE_THREADS: .*must not be greater than 2/,
    );
  });
});

// The variables the worker shares with the api are InfraEnv's (libs/queue): the same rule and message in
// both (apps/api/src/config/api.config.spec.ts asserts the same lines).
describe('worker configuration: the variables shared with the api', () => {
  it('refuses a bad shared variable with the shared message', () => {
    const bad = { REDIS_PREFIX: 'a b', S3_SSE: 'rot13', MAIL_FROM: '', NODE_ENV: 'staging' };
    expect(() => loadWorkerConfig(bad)).toThrow(
      new Error(
        'Invalid worker configuration:\n' +
          '  NODE_ENV: NODE_ENV must be one of the following values: development, production, test (got "staging")\n' +
          '  REDIS_PREFIX: letters, digits, _ - : only (got "a b")\n' +
          '  S3_SSE: S3_SSE must be one of the following values: AES256, aws:kms, none (got "rot13")',
      ),
    );
  });
});
