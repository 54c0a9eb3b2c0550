import type { JobsOptions, Queue } from 'bullmq';
import { createHash } from 'node:crypto';
import type { JobNameOf, PayloadOf, QueueName } from './queues';

/** Retention of finished jobs (ARCHITECTURE §3): completed 24 h, failed 7 days. */
export const JOB_RETENTION = {
  removeOnComplete: { age: 24 * 3600 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

/**
 * The only way the api puts work on a queue: typed per queue and job name, with retention and
 * retries set once. Pass `dedupeKey` to make a double submit one job (deterministic job id).
 */
export class JobProducer {
  constructor(private readonly queues: Partial<Record<QueueName, Queue>>) {}

  async enqueue<Q extends QueueName, N extends JobNameOf<Q>>(
    queue: Q,
    name: N,
    payload: PayloadOf<Q, N>,
    opts: JobsOptions & { dedupeKey?: string } = {},
  ): Promise<string> {
    const q = this.queues[queue];
    if (!q) throw new Error(`Queue ${queue} is not registered in this process`);
    const { dedupeKey, ...rest } = opts;
    const jobId = dedupeKey ? jobIdFrom(queue, dedupeKey) : undefined;
    const job = await q.add(name, payload, {
      attempts: 3,
      backoff: { type: 'exponential', delay: 2000, jitter: 0.5 },
      ...JOB_RETENTION,
      ...rest,
      ...(jobId ? { jobId } : {}),
    });
    return job.id as string;
  }
}

/** BullMQ job ids must not be all digits nor contain ':'. */
export function jobIdFrom(queue: string, key: string): string {
  return `${queue}-${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}
