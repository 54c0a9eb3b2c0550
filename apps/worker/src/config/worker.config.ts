import { z } from 'zod';
import { DEFAULT_DATABASE_URL } from '@csv-mapper/db';

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
  /** How long SIGTERM waits for the active jobs before handing them back to the queue. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  ENABLE_CRON: z.enum(['0', '1']).default('1'),
  /** Comma-separated IPs webhooks may reach although private (tests, self-hosting). */
  WEBHOOK_ALLOWED_IPS: z.string().default(''),
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
  readonly shutdownGraceMs: number;
  readonly enableCron: boolean;
  readonly webhookAllowedIps: ReadonlySet<string>;
  readonly webhookTimeoutMs: number;
  readonly webhookRetryScale: number;

  constructor(e: WorkerEnv) {
    this.env = e.NODE_ENV;
    this.databaseUrl = e.DATABASE_URL;
    this.redisUrl = e.REDIS_URL;
    this.redisPrefix = e.REDIS_PREFIX;
    this.logLevel = e.LOG_LEVEL;
    this.concurrency = e.WORKER_CONCURRENCY;
    this.shutdownGraceMs = e.SHUTDOWN_GRACE_MS;
    this.enableCron = e.ENABLE_CRON === '1';
    this.webhookAllowedIps = new Set(
      e.WEBHOOK_ALLOWED_IPS.split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    );
    this.webhookTimeoutMs = e.WEBHOOK_TIMEOUT_MS;
    this.webhookRetryScale = e.WEBHOOK_RETRY_SCALE;
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
