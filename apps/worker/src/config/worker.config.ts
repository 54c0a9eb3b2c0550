import {
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  Min,
  MinLength,
  ValidateBy,
} from 'class-validator';
import { hostname } from 'node:os';
import { IsAbsoluteUrl, readEnv } from '@csv-mapper/contracts';
import { InfraConfig, InfraEnv, stripeKeyAndPrices, type OutagePolicy } from '@csv-mapper/queue';
import { parseAllowList, type AllowRule } from '../webhooks/ssrf-guard';

// The worker's configuration: the only place in apps/worker that reads process.env. The variables it
// shares with the api (Postgres, Redis, files, mail, Stripe) are declared once, in InfraEnv.

/** Private addresses webhooks may reach: rules WEBHOOK_ALLOWED_IPS can be read into. */
const IsAllowList = () =>
  ValidateBy({
    name: 'isAllowList',
    validator: {
      validate: (v: unknown) => {
        try {
          parseAllowList(String(v));
          return true;
        } catch {
          return false;
        }
      },
      defaultMessage: (args) => {
        try {
          parseAllowList(String(args?.value));
          return '';
        } catch (err) {
          return (err as Error).message.replace(/^WEBHOOK_ALLOWED_IPS: /, '');
        }
      },
    },
  });

/** Every variable the worker reads, with its rule and default: InfraEnv's and these. */
export class WorkerEnv extends InfraEnv {
  @IsInt() @Min(1) @Max(64) WORKER_CONCURRENCY: number = 2;
  /** Deliveries in flight per worker: they wait on receivers, not the CPU (a slow one holds a slot 15 s). */
  @IsInt() @Min(1) @Max(200) WEBHOOK_CONCURRENCY: number = 16;
  /** Threads each job maps with (the engine's `threads`): 2 uses a free core for one big job. */
  @IsInt() @Min(1) @Max(2) ENGINE_THREADS: number = 1;
  /** How long SIGTERM waits for the active jobs before handing them back to the queue. */
  @IsInt() @Min(100) @Max(120_000) SHUTDOWN_GRACE_MS: number = 20_000;
  /**
   * BullMQ job lock, renewed every half of it while the job runs: a job whose worker died is taken over
   * within about this plus WORKER_STALLED_INTERVAL_MS. 10 s: a renewal would have to be late by 5 s to
   * cause a false stall (the engine yields to the event loop every chunk; the scale simulation counts
   * stalls under load), and a killed worker's job resumes within 15 s.
   */
  @IsInt() @Min(500) @Max(600_000) WORKER_LOCK_MS: number = 10_000;
  /** How often a worker looks for stalled jobs (locks that lapsed); defaults to half of WORKER_LOCK_MS. */
  @IsOptional() @IsInt() @Min(250) @Max(600_000) WORKER_STALLED_INTERVAL_MS?: number;
  /** Shown as the job's `processedBy` (BullMQ); default `<hostname>:<pid>`, which names the process. */
  @IsOptional() @IsString() @MinLength(1) WORKER_NAME?: string;
  @IsIn(['0', '1']) ENABLE_CRON: '0' | '1' = '1';
  /**
   * How long a job waits out Postgres or Redis being unreachable (from the first failed attempt of the
   * outage) before it fails for good; attempts used by an outage do not count against its 3 attempts.
   */
  @IsInt() @Min(1000) @Max(86_400_000) JOB_OUTAGE_RETRY_MS: number = 600_000;
  /** First wait after an outage error; each next one doubles (with jitter) up to JOB_OUTAGE_BACKOFF_MAX_MS. */
  @IsInt() @Min(10) @Max(600_000) JOB_OUTAGE_BACKOFF_MS: number = 1000;
  @IsInt() @Min(10) @Max(3_600_000) JOB_OUTAGE_BACKOFF_MAX_MS: number = 30_000;
  /** Lifetime of result blobs in Redis. */
  @IsInt() @Min(1) @Max(7 * 86_400) BLOB_TTL_SECONDS: number = 3600;
  /** The hourly cleanup removes finished jobs older than these (BullMQ only trims on later completions). */
  @IsInt() @Min(1) JOB_KEEP_COMPLETED_SECONDS: number = 24 * 3600;
  @IsInt() @Min(1) JOB_KEEP_FAILED_SECONDS: number = 7 * 24 * 3600;
  @IsAbsoluteUrl() APP_URL: string = 'http://localhost:3000';
  /** Consecutive days of failed deliveries after which an endpoint is disabled and its owner told. */
  @IsNumber() @Min(0.0001) @Max(365) WEBHOOK_DISABLE_AFTER_DAYS: number = 5;
  /**
   * Private addresses webhooks may reach (tests, self-hosting): comma-separated `ip:port`, `cidr:port`,
   * or a bare `ip`/`cidr` for ports 80 and 443 only.
   */
  @IsAllowList() WEBHOOK_ALLOWED_IPS: string = '';
  @IsNumber() @Min(0.00001) @Max(1) WEBHOOK_RETRY_SCALE: number = 1;
  @IsInt() @Min(100) @Max(60_000) WEBHOOK_TIMEOUT_MS: number = 15_000;
}

export class WorkerConfig extends InfraConfig {
  readonly concurrency: number;
  readonly webhookConcurrency: number;
  readonly engineThreads: number;
  readonly shutdownGraceMs: number;
  readonly enableCron: boolean;
  /** How jobs wait out a database or Redis outage (JOB_OUTAGE_*). */
  readonly outage: OutagePolicy;
  readonly webhookAllowedIps: readonly AllowRule[];
  readonly webhookTimeoutMs: number;
  readonly webhookRetryScale: number;
  readonly lockMs: number;
  readonly blobTtlSeconds: number;
  readonly keepCompletedMs: number;
  readonly keepFailedMs: number;
  readonly stalledIntervalMs: number;
  readonly workerName: string;
  readonly appUrl: string;
  readonly webhookDisableAfterMs: number;
  /** Stripe key and prices; null = the simulated billing provider (development and tests). */
  readonly stripe: { secretKey: string; prices: { pro: string; business: string } } | null;

  constructor(e: WorkerEnv) {
    super(e);
    this.concurrency = e.WORKER_CONCURRENCY;
    this.webhookConcurrency = e.WEBHOOK_CONCURRENCY;
    this.engineThreads = e.ENGINE_THREADS;
    this.shutdownGraceMs = e.SHUTDOWN_GRACE_MS;
    this.enableCron = e.ENABLE_CRON === '1';
    this.outage = {
      budgetMs: e.JOB_OUTAGE_RETRY_MS,
      baseDelayMs: e.JOB_OUTAGE_BACKOFF_MS,
      maxDelayMs: Math.max(e.JOB_OUTAGE_BACKOFF_MS, e.JOB_OUTAGE_BACKOFF_MAX_MS),
    };
    this.webhookAllowedIps = parseAllowList(e.WEBHOOK_ALLOWED_IPS);
    this.webhookTimeoutMs = e.WEBHOOK_TIMEOUT_MS;
    this.webhookRetryScale = e.WEBHOOK_RETRY_SCALE;
    this.lockMs = e.WORKER_LOCK_MS;
    this.blobTtlSeconds = e.BLOB_TTL_SECONDS;
    this.keepCompletedMs = e.JOB_KEEP_COMPLETED_SECONDS * 1000;
    this.keepFailedMs = e.JOB_KEEP_FAILED_SECONDS * 1000;
    this.stalledIntervalMs = e.WORKER_STALLED_INTERVAL_MS ?? Math.max(250, Math.round(e.WORKER_LOCK_MS / 2));
    this.workerName = e.WORKER_NAME ?? `${hostname()}:${process.pid}`;
    this.appUrl = e.APP_URL.replace(/\/$/, '');
    this.webhookDisableAfterMs = Math.round(e.WEBHOOK_DISABLE_AFTER_DAYS * 24 * 3600_000);
    this.stripe = stripeKeyAndPrices(e);
  }
}

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const read = readEnv(WorkerEnv, env);
  if (!read.value) throw new Error(`Invalid worker configuration:\n${read.problems.join('\n')}`);
  return new WorkerConfig(read.value);
}
