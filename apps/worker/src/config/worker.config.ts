import { z } from 'zod';
import { DEFAULT_DATABASE_URL } from '@csv-mapper/db';
import { parseAllowList, type AllowRule } from '../webhooks/ssrf-guard';

// The worker's configuration: the only place in apps/worker that reads process.env.

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.string().url().default(DEFAULT_DATABASE_URL),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_:-]*$/)
    .default('csvm:'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** Deliveries in flight per worker: they wait on receivers, not the CPU (a slow one holds a slot 15 s). */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(16),
  /** Threads each job maps with (the engine's `threads`): 2 uses a free core for one big job. */
  ENGINE_THREADS: z.coerce.number().int().min(1).max(2).default(1),
  /** How long SIGTERM waits for the active jobs before handing them back to the queue. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  /** BullMQ job lock: a job whose worker died is handed to another worker after about this long. */
  WORKER_LOCK_MS: z.coerce.number().int().min(500).max(600_000).default(30_000),
  /** How often a worker looks for stalled jobs (locks that lapsed); defaults to WORKER_LOCK_MS. */
  WORKER_STALLED_INTERVAL_MS: z.coerce.number().int().min(250).max(600_000).optional(),
  ENABLE_CRON: z.enum(['0', '1']).default('1'),
  /** Lifetime of result blobs in Redis. */
  BLOB_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .default(3600),
  /** The hourly cleanup removes finished jobs older than these (BullMQ only trims on later completions). */
  JOB_KEEP_COMPLETED_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(24 * 3600),
  JOB_KEEP_FAILED_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(7 * 24 * 3600),
  /** Mail to endpoint owners (e.g. a webhook disabled after days of failures); unset = logged only. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('CSV Mapper <no-reply@csvmapper.app>'),
  APP_URL: z.string().url().default('http://localhost:3000'),
  /** Consecutive days of failed deliveries after which an endpoint is disabled and its owner told. */
  WEBHOOK_DISABLE_AFTER_DAYS: z.coerce.number().min(0.0001).max(365).default(5),
  /**
   * Private addresses webhooks may reach (tests, self-hosting): comma-separated `ip:port`, `cidr:port`,
   * or a bare `ip`/`cidr` for ports 80 and 443 only.
   */
  WEBHOOK_ALLOWED_IPS: z
    .string()
    .default('')
    .superRefine((v, ctx) => {
      try {
        parseAllowList(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    }),
  WEBHOOK_RETRY_SCALE: z.coerce.number().min(0.00001).max(1).default(1),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
});

export type WorkerEnv = z.infer<typeof schema>;

export class WorkerConfig {
  readonly env: WorkerEnv['NODE_ENV'];
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly redisPrefix: string;
  readonly logLevel: WorkerEnv['LOG_LEVEL'];
  readonly concurrency: number;
  readonly webhookConcurrency: number;
  readonly engineThreads: number;
  readonly shutdownGraceMs: number;
  readonly enableCron: boolean;
  readonly webhookAllowedIps: readonly AllowRule[];
  readonly webhookTimeoutMs: number;
  readonly webhookRetryScale: number;
  readonly lockMs: number;
  readonly blobTtlSeconds: number;
  readonly keepCompletedMs: number;
  readonly keepFailedMs: number;
  readonly stalledIntervalMs: number;
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  readonly appUrl: string;
  readonly webhookDisableAfterMs: number;

  constructor(e: WorkerEnv) {
    this.env = e.NODE_ENV;
    this.databaseUrl = e.DATABASE_URL;
    this.redisUrl = e.REDIS_URL;
    this.redisPrefix = e.REDIS_PREFIX;
    this.logLevel = e.LOG_LEVEL;
    this.concurrency = e.WORKER_CONCURRENCY;
    this.webhookConcurrency = e.WEBHOOK_CONCURRENCY;
    this.engineThreads = e.ENGINE_THREADS;
    this.shutdownGraceMs = e.SHUTDOWN_GRACE_MS;
    this.enableCron = e.ENABLE_CRON === '1';
    this.webhookAllowedIps = parseAllowList(e.WEBHOOK_ALLOWED_IPS);
    this.webhookTimeoutMs = e.WEBHOOK_TIMEOUT_MS;
    this.webhookRetryScale = e.WEBHOOK_RETRY_SCALE;
    this.lockMs = e.WORKER_LOCK_MS;
    this.blobTtlSeconds = e.BLOB_TTL_SECONDS;
    this.keepCompletedMs = e.JOB_KEEP_COMPLETED_SECONDS * 1000;
    this.keepFailedMs = e.JOB_KEEP_FAILED_SECONDS * 1000;
    this.stalledIntervalMs = e.WORKER_STALLED_INTERVAL_MS ?? e.WORKER_LOCK_MS;
    this.smtpUrl = e.SMTP_URL;
    this.mailFrom = e.MAIL_FROM;
    this.appUrl = e.APP_URL.replace(/\/$/, '');
    this.webhookDisableAfterMs = Math.round(e.WEBHOOK_DISABLE_AFTER_DAYS * 24 * 3600_000);
  }
}

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid worker configuration:\n${lines.join('\n')}`);
  }
  return new WorkerConfig(parsed.data);
}
