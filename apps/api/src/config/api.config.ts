import {
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  NotEquals,
  ValidateIf,
} from 'class-validator';
import { IsAbsoluteUrl, readEnv } from '@csv-mapper/contracts';
import { InfraConfig, InfraEnv, stripeKeyAndPrices } from '@csv-mapper/queue';

// The api's configuration: the only place in apps/api that reads process.env (STYLE rule 4). The variables
// it shares with the worker (Postgres, Redis, files, mail, Stripe) are declared once, in InfraEnv.

const DEV_SESSION_SECRET = 'dev-only-session-secret-change-me-in-production';

/** Every variable the api reads, with its rule and default: InfraEnv's and these. */
export class ApiEnv extends InfraEnv {
  @IsInt() @Min(0) @Max(65535) PORT: number = 3000;
  @IsString() HOST: string = '0.0.0.0';
  @IsInt() @Min(1) @Max(100) DATABASE_POOL_SIZE: number = 10;
  @IsOptional() @IsAbsoluteUrl() APP_URL?: string;
  @MinLength(32, { message: 'must be at least 32 characters' })
  @ValidateIf((e: ApiEnv) => e.NODE_ENV === 'production')
  @NotEquals(DEV_SESSION_SECRET, { message: 'must be set to a random secret in production' })
  SESSION_SECRET: string = DEV_SESSION_SECRET;
  @IsInt() @Min(0) @Max(10) TRUST_PROXY: number = 0;
  @IsOptional() @IsString() WEB_DIST?: string;
  @IsInt() @Min(1) SYNC_ROW_LIMIT: number = 50_000;
  @IsOptional() @MinLength(1) OPERATOR_USER?: string;
  @IsOptional() @MinLength(12, { message: 'must be at least 12 characters' }) OPERATOR_PASSWORD?: string;
  @IsIn(['0', '1']) OPERATOR_READ_ONLY: '0' | '1' = '0';
  @IsInt() @Min(1) REGISTRATIONS_PER_IP_PER_HOUR: number = 10;
  // Bounded requests: Node's own server timeouts, checked every HTTP_TIMEOUT_CHECK_MS.
  @IsInt()
  @Min(100)
  @ValidateIf((e: ApiEnv) => e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS)
  @Max(0, { message: 'must not be longer than HTTP_REQUEST_TIMEOUT_MS' })
  HTTP_HEADERS_TIMEOUT_MS: number = 20_000;
  @IsInt() @Min(100) HTTP_REQUEST_TIMEOUT_MS: number = 900_000;
  @IsInt() @Min(100) HTTP_KEEP_ALIVE_TIMEOUT_MS: number = 65_000;
  @IsInt() @Min(50) HTTP_TIMEOUT_CHECK_MS: number = 5_000;
  @IsInt() @Min(1) UPLOADS_PER_IP: number = 4;
  @IsInt() @Min(100) HTTP_BODY_TIMEOUT_MS: number = 30_000;
  @IsInt() @Min(1) REQUESTS_PER_IP: number = 100;
  @IsInt() @Min(1) MEMORY_STORE_MAX_FILE_MB: number = 100;
  // Stripe's webhook secret (the key and prices are in InfraEnv).
  @ValidateIf((e: ApiEnv) => !!e.STRIPE_SECRET_KEY || e.STRIPE_WEBHOOK_SECRET !== undefined)
  @IsDefined({ message: 'is required when STRIPE_SECRET_KEY is set' })
  @Matches(/^whsec_/, { message: 'must be a webhook signing secret (whsec_…)' })
  STRIPE_WEBHOOK_SECRET?: string;
  @IsEmail() SALES_EMAIL: string = 'sales@csvmapper.app';
}

export class ApiConfig extends InfraConfig {
  readonly isProduction: boolean;
  readonly port: number;
  readonly host: string;
  readonly databasePoolSize: number;
  readonly appUrl: string;
  readonly sessionSecret: string;
  readonly trustProxy: number;
  readonly webDist: string | undefined;
  readonly syncRowLimit: number;
  /** Sign-up attempts one client IP may make per hour (behind TRUST_PROXY hops). */
  readonly registrationsPerIpPerHour: number;
  /** Server timeouts in ms (http.Server headersTimeout, requestTimeout, keepAliveTimeout; checked every checkMs). */
  readonly http: {
    headersTimeout: number;
    requestTimeout: number;
    keepAliveTimeout: number;
    checkMs: number;
    /** A non-upload request's body must arrive within this (uploads have requestTimeout). */
    bodyTimeout: number;
  };
  /** Requests one client IP may have in flight at once (per instance); more get 429. */
  readonly requestsPerIp: number;
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
    super(e);
    this.isProduction = e.NODE_ENV === 'production';
    this.port = e.PORT;
    this.host = e.HOST;
    this.databasePoolSize = e.DATABASE_POOL_SIZE;
    this.appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
    this.sessionSecret = e.SESSION_SECRET;
    this.trustProxy = e.TRUST_PROXY;
    this.webDist = e.WEB_DIST;
    this.syncRowLimit = e.SYNC_ROW_LIMIT;
    this.registrationsPerIpPerHour = e.REGISTRATIONS_PER_IP_PER_HOUR;
    this.http = {
      headersTimeout: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeout: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      checkMs: e.HTTP_TIMEOUT_CHECK_MS,
      bodyTimeout: e.HTTP_BODY_TIMEOUT_MS,
    };
    this.requestsPerIp = e.REQUESTS_PER_IP;
    this.uploadsPerIp = e.UPLOADS_PER_IP;
    this.memoryStoreMaxFileBytes = e.MEMORY_STORE_MAX_FILE_MB * 1024 * 1024;
    this.operator =
      e.OPERATOR_USER && e.OPERATOR_PASSWORD
        ? { user: e.OPERATOR_USER, password: e.OPERATOR_PASSWORD, readOnly: e.OPERATOR_READ_ONLY === '1' }
        : null;
    this.salesEmail = e.SALES_EMAIL;
    const stripe = stripeKeyAndPrices(e);
    this.stripe = stripe && {
      secretKey: stripe.secretKey,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? '',
      prices: stripe.prices,
    };
  }
}

export class ConfigError extends Error {
  constructor(readonly lines: string[]) {
    super(`Invalid configuration:\n${lines.join('\n')}`);
  }
}

/** Parses the environment; throws ConfigError with one line per missing or invalid variable. */
export function loadApiConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const read = readEnv(ApiEnv, env);
  if (!read.value) throw new ConfigError(read.problems);
  return new ApiConfig(read.value);
}
