import { slotKey, type RedisClient } from './redis';
import type { BatchEventData, BatchEventFile, BatchRejection } from '@csv-mapper/contracts';

// Bulk uploads: the batch record (which job runs which file, which files were left out), the owner's index
// of recent batches, and the outcomes of finished files, from which exactly one `batch.completed` is raised.

/** Batches are listed for a week, like background jobs. */
const BATCH_TTL_SECONDS = 7 * 24 * 3600;

export interface BatchFileRecord {
  jobId: string;
  dataFileId: string;
  filename: string;
}

export interface BatchRecord {
  id: string;
  userId: string;
  templateFilename: string | null;
  mappingName: string | null;
  files: BatchFileRecord[];
  rejected: BatchRejection[];
  createdAt: string;
}

export class BatchStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  // A batch's record and outcomes share the batch as Redis Cluster hash tag; the owner's index lives in
  // its own slot, so no MULTI below spans both.
  private key(id: string): string {
    return slotKey(this.prefix, `batch:${id}`, 'record');
  }
  private outcomesKey(id: string): string {
    return slotKey(this.prefix, `batch:${id}`, 'outcomes');
  }
  private indexKey(userId: string): string {
    return `${this.prefix}user-batches:${userId}`;
  }

  async create(batch: BatchRecord): Promise<void> {
    const at = Date.parse(batch.createdAt);
    const index = this.indexKey(batch.userId);
    await this.redis.set(this.key(batch.id), JSON.stringify(batch), 'EX', BATCH_TTL_SECONDS);
    await this.redis
      .multi()
      .zadd(index, at, batch.id)
      .zremrangebyscore(index, 0, at - BATCH_TTL_SECONDS * 1000)
      .expire(index, BATCH_TTL_SECONDS)
      .exec();
  }

  /** The batch if it exists and belongs to `userId`; someone else's looks exactly like a missing one. */
  async get(id: string, userId: string): Promise<BatchRecord | null> {
    const raw = await this.redis.get(this.key(id));
    if (!raw) return null;
    const batch = JSON.parse(raw) as BatchRecord;
    return batch.userId === userId ? batch : null;
  }

  /** The batch whatever its owner (for the worker, which acts for the owner named in the job). */
  async find(id: string): Promise<BatchRecord | null> {
    const raw = await this.redis.get(this.key(id));
    return raw ? (JSON.parse(raw) as BatchRecord) : null;
  }

  /**
   * Records one finished file of a job's batch; answers the `batch.completed` data when it was the last.
   * Every place a batch job ends (the worker's outcomes, the api's cancel of a queued job) calls this.
   */
  async finishJob(
    batchId: string,
    outcome: BatchEventFile,
    appUrl: string,
  ): Promise<{ userId: string; data: BatchEventData } | null> {
    const batch = await this.find(batchId);
    if (!batch) return null;
    const all = await this.finishFile(batchId, outcome, batch.files.length);
    return all ? { userId: batch.userId, data: batchEvent(batch, all, appUrl) } : null;
  }

  /** The owner's batches, newest first. */
  async list(userId: string, limit = 10): Promise<BatchRecord[]> {
    const ids = await this.redis.zrevrange(this.indexKey(userId), 0, limit - 1);
    const found = await Promise.all(ids.map((id) => this.get(id, userId)));
    return found.filter((b): b is BatchRecord => b !== null);
  }

  /** Outcomes recorded so far, by job id. */
  async outcomes(id: string): Promise<Map<string, BatchEventFile & { finishedAt: string }>> {
    const all = await this.redis.hgetall(this.outcomesKey(id));
    return new Map(Object.entries(all).map(([jobId, v]) => [jobId, JSON.parse(v)]));
  }

  /**
   * Records that one file's job finished. Answers every outcome when this call finished the batch, else
   * null: a job that finishes twice (a retry) is counted once, so exactly one caller sees the batch done.
   */
  async finishFile(
    batchId: string,
    outcome: BatchEventFile,
    files: number,
  ): Promise<Array<BatchEventFile & { finishedAt: string }> | null> {
    const key = this.outcomesKey(batchId);
    const value = JSON.stringify({ ...outcome, finishedAt: new Date().toISOString() });
    const res = await this.redis
      .multi()
      .hsetnx(key, outcome.jobId, value)
      .expire(key, BATCH_TTL_SECONDS)
      .hlen(key)
      .hgetall(key)
      .exec();
    if (!res) return null;
    const [[, added], , [, count], [, all]] = res as [
      [null, number],
      unknown,
      [null, number],
      [null, Record<string, string>],
    ];
    if (added !== 1 || count !== files) return null;
    return Object.values(all).map((v) => JSON.parse(v) as BatchEventFile & { finishedAt: string });
  }

  async removeUser(userId: string): Promise<void> {
    const ids = await this.redis.zrange(this.indexKey(userId), 0, -1);
    await Promise.all(ids.map((id) => this.redis.del(this.key(id), this.outcomesKey(id))));
    await this.redis.del(this.indexKey(userId));
  }
}

/** `batch.completed` data: the files in the batch's order, with counts and the ZIP address. */
export function batchEvent(
  batch: BatchRecord,
  outcomes: Array<BatchEventFile & { finishedAt?: string }>,
  appUrl: string,
): BatchEventData {
  const byJob = new Map(outcomes.map((o) => [o.jobId, o]));
  const jobs: BatchEventFile[] = batch.files.map((f) => {
    const o = byJob.get(f.jobId);
    return {
      jobId: f.jobId,
      dataFilename: f.filename,
      state: o?.state ?? 'cancelled',
      rowsWritten: o?.rowsWritten ?? 0,
      warningCount: o?.warningCount ?? 0,
    };
  });
  const count = (s: BatchEventFile['state']) => jobs.filter((j) => j.state === s).length;
  const completed = count('completed');
  return {
    batchId: batch.id,
    state: 'completed',
    files: jobs.length,
    completed,
    failed: count('failed'),
    cancelled: count('cancelled'),
    rowsWritten: jobs.reduce((sum, j) => sum + j.rowsWritten, 0),
    jobs,
    resultZipUrl: completed > 0 ? `${appUrl}/api/batches/${encodeURIComponent(batch.id)}/result.zip` : null,
    finishedAt: new Date().toISOString(),
  };
}
