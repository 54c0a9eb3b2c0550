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
import { DEFAULT_DATABASE_URL } from '@csv-mapper/db';
import { parseClusterNodes, type BlobStoreSettings, type ClusterNodes } from '@csv-mapper/queue';

// The api's configuration: the only place in apps/api that reads process.env (STYLE rule 4).

const DEV_SESSION_SECRET = 'dev-only-session-secret-change-me-in-production';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Every variable the api reads, with its rule and default. */
export class ApiEnv {
  @IsIn(['development', 'production', 'test']) NODE_ENV: 'development' | 'production' | 'test' =
    'development';
  @IsInt() @Min(0) @Max(65535) PORT: number = 3000;
  @IsString() HOST: string = '0.0.0.0';
  @IsAbsoluteUrl() DATABASE_URL: string = DEFAULT_DATABASE_URL;
  @IsInt() @Min(1) @Max(100) DATABASE_POOL_SIZE: number = 10;
  @IsAbsoluteUrl() REDIS_URL: string = 'redis://127.0.0.1:6379';
  /** Redis Cluster seed nodes, `host:port,host:port` (credentials and TLS from REDIS_URL); unset = one Redis. */
  @IsOptional()
  @Matches(/^\s*[^\s,:]+:\d{1,5}\s*(,\s*[^\s,:]+:\d{1,5}\s*)*$/, { message: 'must be host:port,host:port,…' })
  REDIS_CLUSTER_NODES?: string;
  @Matches(/^[A-Za-z0-9_:-]*$/, { message: 'letters, digits, _ - : only' }) REDIS_PREFIX: string = 'csvm:';
  @IsOptional() @IsAbsoluteUrl() APP_URL?: string;
  @MinLength(32, { message: 'must be at least 32 characters' })
  @ValidateIf((e: ApiEnv) => e.NODE_ENV === 'production')
  @NotEquals(DEV_SESSION_SECRET, { message: 'must be set to a random secret in production' })
  SESSION_SECRET: string = DEV_SESSION_SECRET;
  @IsInt() @Min(0) @Max(10) TRUST_PROXY: number = 0;
  @IsIn(LOG_LEVELS) LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';
  @IsOptional() @IsString() WEB_DIST?: string;
  @IsOptional() @IsAbsoluteUrl() SMTP_URL?: string;
  @IsString() MAIL_FROM: string = 'CSV Mapper <no-reply@csvmapper.app>';
  @IsInt() @Min(1) SYNC_ROW_LIMIT: number = 50_000;
  @IsOptional() @MinLength(1) OPERATOR_USER?: string;
  @IsOptional() @MinLength(12, { message: 'must be at least 12 characters' }) OPERATOR_PASSWORD?: string;
  @IsIn(['0', '1']) OPERATOR_READ_ONLY: '0' | '1' = '0';
  @IsIn(['0', '1']) SKIP_REDIS_POLICY_CHECK: '0' | '1' = '0';
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
  // Where files live: \`memory\` (Redis, the default: nothing else to run) or \`s3\` (any S3-compatible store).
  @IsIn(['memory', 's3']) BLOB_STORE: 'memory' | 's3' = 'memory';
  @ValidateIf((e: ApiEnv) => e.BLOB_STORE === 's3' || e.S3_BUCKET !== undefined)
  @IsDefined({ message: 'is required when BLOB_STORE=s3' })
  @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'must be an S3 bucket name' })
  S3_BUCKET?: string;
  @IsOptional() @IsAbsoluteUrl() S3_ENDPOINT?: string;
  /** The endpoint browsers and API clients reach, when it differs from S3_ENDPOINT (presigned URLs). */
  @IsOptional() @IsAbsoluteUrl() S3_PUBLIC_ENDPOINT?: string;
  @IsString() @MinLength(1) S3_REGION: string = 'us-east-1';
  @IsIn(['0', '1']) S3_FORCE_PATH_STYLE: '0' | '1' = '0';
  /** Server-side encryption asked for on every object; \`none\` for stores without it (MinIO without KMS). */
  @IsIn(['AES256', 'aws:kms', 'none']) S3_SSE: 'AES256' | 'aws:kms' | 'none' = 'AES256';
  @Matches(/^[A-Za-z0-9_./-]*$/, { message: 'letters, digits, _ . / - only' }) S3_KEY_PREFIX: string =
    'csvm/';
  // Billing: Stripe when STRIPE_SECRET_KEY is set, else the in-process simulated provider.
  @IsOptional()
  @Matches(/^(sk|rk)_/, { message: 'must be a Stripe secret or restricted key (sk_… or rk_…)' })
  STRIPE_SECRET_KEY?: string;
  @ValidateIf((e: ApiEnv) => !!e.STRIPE_SECRET_KEY || e.STRIPE_WEBHOOK_SECRET !== undefined)
  @IsDefined({ message: 'is required when STRIPE_SECRET_KEY is set' })
  @Matches(/^whsec_/, { message: 'must be a webhook signing secret (whsec_…)' })
  STRIPE_WEBHOOK_SECRET?: string;
  @ValidateIf((e: ApiEnv) => !!e.STRIPE_SECRET_KEY || e.STRIPE_PRICE_PRO !== undefined)
  @IsDefined({ message: 'is required when STRIPE_SECRET_KEY is set' })
  @Matches(/^price_/, { message: 'must be a Stripe price id (price_…)' })
  STRIPE_PRICE_PRO?: string;
  @ValidateIf((e: ApiEnv) => !!e.STRIPE_SECRET_KEY || e.STRIPE_PRICE_BUSINESS !== undefined)
  @IsDefined({ message: 'is required when STRIPE_SECRET_KEY is set' })
  @Matches(/^price_/, { message: 'must be a Stripe price id (price_…)' })
  STRIPE_PRICE_BUSINESS?: string;
  @IsEmail() SALES_EMAIL: string = 'sales@csvmapper.app';
}

export class ApiConfig {
  readonly env: ApiEnv['NODE_ENV'];
  readonly isProduction: boolean;
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  readonly databasePoolSize: number;
  readonly redisUrl: string;
  /** Set when Redis is a cluster (REDIS_CLUSTER_NODES). */
  readonly redisClusterNodes: ClusterNodes;
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
    /** A non-upload request's body must arrive within this (uploads have requestTimeout). */
    bodyTimeout: number;
  };
  /** Requests one client IP may have in flight at once (per instance); more get 429. */
  readonly requestsPerIp: number;
  /** Uploads one client IP may have in flight at once; more get 429. */
  readonly uploadsPerIp: number;
  /** The largest file the in-Redis store takes, whatever the plan ("unlimited" included), in bytes. */
  readonly memoryStoreMaxFileBytes: number;
  /** The BlobStore driver and its settings (BLOB_STORE, S3_*). */
  readonly blobStore: BlobStoreSettings;
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
    this.redisClusterNodes = parseClusterNodes(e.REDIS_CLUSTER_NODES);
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
      bodyTimeout: e.HTTP_BODY_TIMEOUT_MS,
    };
    this.requestsPerIp = e.REQUESTS_PER_IP;
    this.uploadsPerIp = e.UPLOADS_PER_IP;
    this.memoryStoreMaxFileBytes = e.MEMORY_STORE_MAX_FILE_MB * 1024 * 1024;
    this.blobStore =
      e.BLOB_STORE === 's3'
        ? {
            driver: 's3',
            bucket: e.S3_BUCKET as string,
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT,
            publicEndpoint: e.S3_PUBLIC_ENDPOINT,
            forcePathStyle: e.S3_FORCE_PATH_STYLE === '1',
            sse: e.S3_SSE,
            keyPrefix: e.S3_KEY_PREFIX,
          }
        : { driver: 'memory' };
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

/** Parses the environment; throws ConfigError with one line per missing or invalid variable. */
export function loadApiConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const read = readEnv(ApiEnv, env);
  if (!read.value) throw new ConfigError(read.problems);
  return new ApiConfig(read.value);
}
