import { z } from 'zod';
import { DEFAULT_DATABASE_URL } from '@csv-mapper/db';

// The api's configuration: the only place in apps/api that reads process.env (STYLE rule 4).

const DEV_SESSION_SECRET = 'dev-only-session-secret-change-me-in-production';

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATABASE_URL: z.string().url().default(DEFAULT_DATABASE_URL),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_:-]*$/, 'letters, digits, _ - : only')
      .default('csvm:'),
    APP_URL: z.string().url().optional(),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEV_SESSION_SECRET),
    TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    WEB_DIST: z.string().optional(),
    SMTP_URL: z.string().url().optional(),
    MAIL_FROM: z.string().default('CSV Mapper <no-reply@csvmapper.app>'),
    SYNC_ROW_LIMIT: z.coerce.number().int().min(1).default(50_000),
    OPERATOR_USER: z.string().min(1).optional(),
    OPERATOR_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
    OPERATOR_READ_ONLY: z.enum(['0', '1']).default('0'),
    SKIP_REDIS_POLICY_CHECK: z.enum(['0', '1']).default('0'),
    REGISTRATIONS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(10),
    // Bounded requests: Node's own server timeouts, checked every HTTP_TIMEOUT_CHECK_MS.
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(900_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).default(65_000),
    HTTP_TIMEOUT_CHECK_MS: z.coerce.number().int().min(50).default(5_000),
    UPLOADS_PER_IP: z.coerce.number().int().min(1).default(4),
    MEMORY_STORE_MAX_FILE_MB: z.coerce.number().int().min(1).default(100),
    // Billing: Stripe when STRIPE_SECRET_KEY is set, else the in-process simulated provider.
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_/, 'must be a Stripe secret or restricted key (sk_… or rk_…)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .startsWith('whsec_', 'must be a webhook signing secret (whsec_…)')
      .optional(),
    STRIPE_PRICE_PRO: z.string().startsWith('price_', 'must be a Stripe price id (price_…)').optional(),
    STRIPE_PRICE_BUSINESS: z.string().startsWith('price_', 'must be a Stripe price id (price_…)').optional(),
    SALES_EMAIL: z.string().email().default('sales@csvmapper.app'),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && env.SESSION_SECRET === DEV_SESSION_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['SESSION_SECRET'],
        message: 'must be set to a random secret in production',
      });
    }
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_HEADERS_TIMEOUT_MS'],
        message: 'must not be longer than HTTP_REQUEST_TIMEOUT_MS',
      });
    }
    if (env.STRIPE_SECRET_KEY) {
      for (const key of ['STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_PRO', 'STRIPE_PRICE_BUSINESS'] as const) {
        if (!env[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'is required when STRIPE_SECRET_KEY is set' });
      }
    }
  });

export type ApiEnv = z.infer<typeof schema>;

export class ApiConfig {
  readonly env: ApiEnv['NODE_ENV'];
  readonly isProduction: boolean;
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  readonly databasePoolSize: number;
  readonly redisUrl: string;
  readonly redisPrefix: string;
  readonly appUrl: string;
  readonly sessionSecret: string;
  readonly trustProxy: number;
  readonly logLevel: ApiEnv['LOG_LEVEL'];
  readonly webDist: string | undefined;
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  readonly syncRowLimit: number;
  readonly checkRedisPolicy: boolean;
  /** Sign-up attempts one client IP may make per hour (behind TRUST_PROXY hops). */
  readonly registrationsPerIpPerHour: number;
  /** Server timeouts in ms (http.Server headersTimeout, requestTimeout, keepAliveTimeout; checked every checkMs). */
  readonly http: {
    headersTimeout: number;
    requestTimeout: number;
    keepAliveTimeout: number;
    checkMs: number;
  };
  /** Uploads one client IP may have in flight at once; more get 429. */
  readonly uploadsPerIp: number;
  /** The largest file the in-Redis store takes, whatever the plan ("unlimited" included), in bytes. */
  readonly memoryStoreMaxFileBytes: number;
  /** Basic-auth credentials for /admin/queues and /api/metrics; both unset = those routes answer 404. */
  readonly operator: { user: string; password: string; readOnly: boolean } | null;
  /** Stripe settings; null = the simulated billing provider (development and tests). */
  readonly salesEmail: string;
  readonly stripe: {
    secretKey: string;
    webhookSecret: string;
    prices: { pro: string; business: string };
  } | null;

  constructor(e: ApiEnv) {
    this.env = e.NODE_ENV;
    this.isProduction = e.NODE_ENV === 'production';
    this.port = e.PORT;
    this.host = e.HOST;
    this.databaseUrl = e.DATABASE_URL;
    this.databasePoolSize = e.DATABASE_POOL_SIZE;
    this.redisUrl = e.REDIS_URL;
    this.redisPrefix = e.REDIS_PREFIX;
    this.appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
    this.sessionSecret = e.SESSION_SECRET;
    this.trustProxy = e.TRUST_PROXY;
    this.logLevel = e.LOG_LEVEL;
    this.webDist = e.WEB_DIST;
    this.smtpUrl = e.SMTP_URL;
    this.mailFrom = e.MAIL_FROM;
    this.syncRowLimit = e.SYNC_ROW_LIMIT;
    this.checkRedisPolicy = e.SKIP_REDIS_POLICY_CHECK !== '1';
    this.registrationsPerIpPerHour = e.REGISTRATIONS_PER_IP_PER_HOUR;
    this.http = {
      headersTimeout: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeout: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      checkMs: e.HTTP_TIMEOUT_CHECK_MS,
    };
    this.uploadsPerIp = e.UPLOADS_PER_IP;
    this.memoryStoreMaxFileBytes = e.MEMORY_STORE_MAX_FILE_MB * 1024 * 1024;
    this.operator =
      e.OPERATOR_USER && e.OPERATOR_PASSWORD
        ? { user: e.OPERATOR_USER, password: e.OPERATOR_PASSWORD, readOnly: e.OPERATOR_READ_ONLY === '1' }
        : null;
    this.salesEmail = e.SALES_EMAIL;
    this.stripe = e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET as string,
          prices: { pro: e.STRIPE_PRICE_PRO as string, business: e.STRIPE_PRICE_BUSINESS as string },
        }
      : null;
  }
}

export class ConfigError extends Error {
  constructor(readonly lines: string[]) {
    super(`Invalid configuration:\n${lines.join('\n')}`);
  }
}

/** A value for a config error message; secrets are never echoed into logs. */
function shown(key: string, value: string | undefined): string {
  if (value === undefined) return 'null';
  return /SECRET|PASSWORD|_KEY$/.test(key) ? '(hidden)' : JSON.stringify(value);
}

/** Parses the environment; throws ConfigError with one line per missing or invalid variable. */
export function loadApiConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (i) =>
          `  ${i.path.join('.') || '(env)'}: ${i.message} (got ${shown(String(i.path[0]), env[String(i.path[0])])})`,
      ),
    );
  }
  return new ApiConfig(parsed.data);
}
