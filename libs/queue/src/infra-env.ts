import { IsDefined, IsIn, IsOptional, IsString, Matches, MinLength, ValidateIf } from 'class-validator';
import { IsAbsoluteUrl } from '@csv-mapper/contracts';
import { DEFAULT_DATABASE_URL } from '@csv-mapper/db';
import type { BlobStoreSettings } from './blob-store-factory';
import { parseClusterNodes, type ClusterNodes } from './redis';

// The environment variables the api and the worker both read — the infrastructure they share (Postgres,
// Redis, the file store, mail, Stripe) — declared once, with one rule, one default and one message each.
// Each app's config class extends this one with its own variables (apps/*/src/config).

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Every variable the api and the worker both read, with its rule and default. */
export class InfraEnv {
  @IsIn(['development', 'production', 'test']) NODE_ENV: 'development' | 'production' | 'test' =
    'development';
  @IsAbsoluteUrl() DATABASE_URL: string = DEFAULT_DATABASE_URL;
  @IsAbsoluteUrl() REDIS_URL: string = 'redis://127.0.0.1:6379';
  /** Redis Cluster seed nodes, `host:port,host:port` (credentials and TLS from REDIS_URL); unset = one Redis. */
  @IsOptional()
  @Matches(/^\s*[^\s,:]+:\d{1,5}\s*(,\s*[^\s,:]+:\d{1,5}\s*)*$/, { message: 'must be host:port,host:port,…' })
  REDIS_CLUSTER_NODES?: string;
  @Matches(/^[A-Za-z0-9_:-]*$/, { message: 'letters, digits, _ - : only' }) REDIS_PREFIX: string = 'csvm:';
  /** `1` skips the boot check of Redis' maxmemory-policy (for a Redis that refuses CONFIG GET). */
  @IsIn(['0', '1']) SKIP_REDIS_POLICY_CHECK: '0' | '1' = '0';
  @IsIn(LOG_LEVELS) LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';
  /** Mail (account emails; endpoint owners told of a disabled webhook); unset = logged only. */
  @IsOptional() @IsAbsoluteUrl() SMTP_URL?: string;
  @IsString() MAIL_FROM: string = 'CSV Mapper <no-reply@csvmapper.app>';
  // Where files live: `memory` (Redis, the default: nothing else to run) or `s3` (any S3-compatible store).
  @IsIn(['memory', 's3']) BLOB_STORE: 'memory' | 's3' = 'memory';
  @ValidateIf((e: InfraEnv) => e.BLOB_STORE === 's3' || e.S3_BUCKET !== undefined)
  @IsDefined({ message: 'is required when BLOB_STORE=s3' })
  @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'must be an S3 bucket name' })
  S3_BUCKET?: string;
  @IsOptional() @IsAbsoluteUrl() S3_ENDPOINT?: string;
  /** The endpoint browsers and API clients reach, when it differs from S3_ENDPOINT (presigned URLs). */
  @IsOptional() @IsAbsoluteUrl() S3_PUBLIC_ENDPOINT?: string;
  @IsString() @MinLength(1) S3_REGION: string = 'us-east-1';
  @IsIn(['0', '1']) S3_FORCE_PATH_STYLE: '0' | '1' = '0';
  /** Server-side encryption asked for on every object; `none` for stores without it (MinIO without KMS). */
  @IsIn(['AES256', 'aws:kms', 'none']) S3_SSE: 'AES256' | 'aws:kms' | 'none' = 'AES256';
  @Matches(/^[A-Za-z0-9_./-]*$/, { message: 'letters, digits, _ . / - only' }) S3_KEY_PREFIX: string =
    'csvm/';
  // Billing: Stripe when STRIPE_SECRET_KEY is set (the api's checkout, the worker's billing events and
  // daily reconciliation, with the same key and prices), else the in-process simulated provider.
  @IsOptional()
  @Matches(/^(sk|rk)_/, { message: 'must be a Stripe secret or restricted key (sk_… or rk_…)' })
  STRIPE_SECRET_KEY?: string;
  @ValidateIf((e: InfraEnv) => !!e.STRIPE_SECRET_KEY || e.STRIPE_PRICE_PRO !== undefined)
  @IsDefined({ message: 'is required when STRIPE_SECRET_KEY is set' })
  @Matches(/^price_/, { message: 'must be a Stripe price id (price_…)' })
  STRIPE_PRICE_PRO?: string;
  @ValidateIf((e: InfraEnv) => !!e.STRIPE_SECRET_KEY || e.STRIPE_PRICE_BUSINESS !== undefined)
  @IsDefined({ message: 'is required when STRIPE_SECRET_KEY is set' })
  @Matches(/^price_/, { message: 'must be a Stripe price id (price_…)' })
  STRIPE_PRICE_BUSINESS?: string;
}

/** How a process reaches Redis, read from InfraEnv (what the Redis providers and the policy check take). */
export interface RedisSettings {
  readonly redisUrl: string;
  /** Set when Redis is a cluster (REDIS_CLUSTER_NODES). */
  readonly redisClusterNodes: ClusterNodes;
  readonly redisPrefix: string;
  /** Refuse to start on a Redis that evicts keys (SKIP_REDIS_POLICY_CHECK=1 turns it off). */
  readonly checkRedisPolicy: boolean;
}

/** The Redis settings InfraEnv holds. */
export function redisSettings(e: InfraEnv): RedisSettings {
  return {
    redisUrl: e.REDIS_URL,
    redisClusterNodes: parseClusterNodes(e.REDIS_CLUSTER_NODES),
    redisPrefix: e.REDIS_PREFIX,
    checkRedisPolicy: e.SKIP_REDIS_POLICY_CHECK !== '1',
  };
}

/**
 * What the api's and the worker's config classes both hold from InfraEnv — Postgres, Redis, the file store,
 * mail and the log level — read in one place; ApiConfig and WorkerConfig extend it with their own settings.
 */
export class InfraConfig implements RedisSettings {
  readonly env: InfraEnv['NODE_ENV'];
  readonly logLevel: InfraEnv['LOG_LEVEL'];
  readonly databaseUrl: string;
  readonly redisUrl: string;
  /** Set when Redis is a cluster (REDIS_CLUSTER_NODES). */
  readonly redisClusterNodes: ClusterNodes;
  readonly redisPrefix: string;
  /** Refuse to start on a Redis that evicts keys (SKIP_REDIS_POLICY_CHECK=1 turns it off). */
  readonly checkRedisPolicy: boolean;
  /** The BlobStore driver and its settings (BLOB_STORE, S3_*). */
  readonly blobStore: BlobStoreSettings;
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;

  constructor(e: InfraEnv) {
    this.env = e.NODE_ENV;
    this.logLevel = e.LOG_LEVEL;
    this.databaseUrl = e.DATABASE_URL;
    const redis = redisSettings(e);
    this.redisUrl = redis.redisUrl;
    this.redisClusterNodes = redis.redisClusterNodes;
    this.redisPrefix = redis.redisPrefix;
    this.checkRedisPolicy = redis.checkRedisPolicy;
    this.blobStore = blobStoreSettings(e);
    this.smtpUrl = e.SMTP_URL;
    this.mailFrom = e.MAIL_FROM;
  }
}

/** The BlobStore driver and its settings (BLOB_STORE, S3_*). */
export function blobStoreSettings(e: InfraEnv): BlobStoreSettings {
  return e.BLOB_STORE === 's3'
    ? {
        driver: 's3',
        // Required by the rule above when BLOB_STORE=s3.
        bucket: e.S3_BUCKET ?? '',
        region: e.S3_REGION,
        endpoint: e.S3_ENDPOINT,
        publicEndpoint: e.S3_PUBLIC_ENDPOINT,
        forcePathStyle: e.S3_FORCE_PATH_STYLE === '1',
        sse: e.S3_SSE,
        keyPrefix: e.S3_KEY_PREFIX,
      }
    : { driver: 'memory' };
}

/** Stripe's key and prices when STRIPE_SECRET_KEY is set (the rules above require the prices then). */
export function stripeKeyAndPrices(
  e: InfraEnv,
): { secretKey: string; prices: { pro: string; business: string } } | null {
  return e.STRIPE_SECRET_KEY
    ? {
        secretKey: e.STRIPE_SECRET_KEY,
        prices: { pro: e.STRIPE_PRICE_PRO ?? '', business: e.STRIPE_PRICE_BUSINESS ?? '' },
      }
    : null;
}
