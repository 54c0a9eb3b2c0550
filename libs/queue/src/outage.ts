import { DelayedError, type Job } from 'bullmq';

// Outages are waited out, not failed (issue 28): a background job whose attempt failed because Postgres or
// Redis was unreachable is put back on the queue with its own time budget, apart from its attempts for
// errors in the file. The error is classified by its codes and classes only, never by its message text.

/** Socket-level failures: the peer refused, reset or never answered. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTCONN',
  'EAI_AGAIN',
]);

/**
 * Postgres SQLSTATEs of a server that is going away, starting up or full: admin/crash shutdown
 * (57P01/57P02), cannot connect now (57P03), too many connections (53300), plus the whole connection
 * exception class 08.
 */
const PG_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

/** ioredis' own errors for a connection that is gone (by class name). */
const REDIS_ERROR_NAMES = new Set(['MaxRetriesPerRequestError', 'ClusterAllFailedError']);

type ErrorLike = {
  code?: unknown;
  name?: unknown;
  cause?: unknown;
  driverError?: unknown;
  errors?: unknown;
};

/** True when `err` (or what it wraps: TypeORM's driverError, a cause, an AggregateError's errors) is an outage. */
export function isInfrastructureError(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as ErrorLike;
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || PG_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  if (typeof e.name === 'string' && REDIS_ERROR_NAMES.has(e.name)) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isInfrastructureError(x, depth + 1))) return true;
  return isInfrastructureError(e.driverError, depth + 1) || isInfrastructureError(e.cause, depth + 1);
}

/** How long and how often a job waits out an outage. */
export interface OutagePolicy {
  /** From the first failed attempt of an outage: past this the job fails for good. */
  budgetMs: number;
  /** The first wait; each following one doubles, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Default: 10 minutes (a managed database's failover takes 1–5), waits of 1 s doubling up to 30 s. */
export const DEFAULT_OUTAGE_POLICY: OutagePolicy = {
  budgetMs: 600_000,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
};

/** Wait before retry n (0-based): exponential, capped, with "equal jitter" (half fixed, half random). */
export function outageDelayMs(
  retry: number,
  policy: OutagePolicy,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(retry, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** Kept in the job's data while it waits out an outage. */
export interface OutageMark {
  since: number;
  retries: number;
}

/** Thrown when a job waited out an outage for its whole budget: the caller fails it with a clean message. */
export class OutageBudgetExhaustedError extends Error {
  constructor(readonly waitedMs: number) {
    super('outage retry budget exhausted');
    this.name = 'OutageBudgetExhaustedError';
  }
}

/**
 * Call from a processor's catch with an infrastructure error: puts the job back as delayed (no attempt
 * used) and throws BullMQ's DelayedError, or throws OutageBudgetExhaustedError once the budget is spent.
 */
export async function deferForOutage(
  job: Job,
  token: string | undefined,
  policy: OutagePolicy,
  now: number = Date.now(),
): Promise<never> {
  const data = job.data as Record<string, unknown> & { outage?: OutageMark };
  const mark: OutageMark = data.outage ?? { since: now, retries: 0 };
  if (now - mark.since >= policy.budgetMs) throw new OutageBudgetExhaustedError(now - mark.since);
  const delay = Math.min(
    outageDelayMs(mark.retries, policy),
    Math.max(0, mark.since + policy.budgetMs - now),
  );
  await job.updateData({ ...data, outage: { since: mark.since, retries: mark.retries + 1 } });
  await job.moveToDelayed(now + delay, token);
  throw new DelayedError(`waiting out an outage (retry ${mark.retries + 1} in ${delay} ms)`);
}
