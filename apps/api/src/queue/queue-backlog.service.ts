import type { Queue } from 'bullmq';
import { queueBacklog, type QueueBacklog } from '@csv-mapper/queue';

/** Every queue's backlog (waiting, active, delayed, failed, oldest waiting age) for the health detail. */
export class QueueBacklogService {
  constructor(private readonly queues: Queue[]) {}

  async all(): Promise<Record<string, QueueBacklog>> {
    const now = Date.now();
    const entries = await Promise.all(
      this.queues.map(async (q) => [q.name, await queueBacklog(q, now)] as const),
    );
    return Object.fromEntries(entries);
  }
}
