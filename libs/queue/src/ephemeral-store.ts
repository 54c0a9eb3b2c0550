import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Redis } from 'ioredis';

// Ephemeral file store: uploads and job results live in Redis as a list of binary chunks plus a
// JSON meta record, both with a TTL. Every read checks the owner; a wrong owner looks like "not found".

/** `review`, `issues`, `patch`: a run's review session (libs/queue/src/review-store.ts). */
export type BlobKind = 'upload' | 'result' | 'review' | 'issues' | 'patch';

export interface BlobMeta {
  id: string;
  kind: BlobKind;
  ownerId: string;
  filename: string;
  size: number;
  createdAt: string;
  /** Free-form, JSON-safe details (headers, row count, encoding…). */
  info: Record<string, unknown>;
}

export const DEFAULT_BLOB_TTL_SECONDS = 3600;
const CHUNK_TARGET = 512 * 1024;

export class BlobNotFoundError extends Error {
  readonly code = 'NOT_FOUND';
  constructor() {
    super('File not found or expired. Upload it again.');
  }
}

export class EphemeralStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds = DEFAULT_BLOB_TTL_SECONDS,
  ) {}

  private metaKey(id: string): string {
    return `${this.prefix}blob:${id}:meta`;
  }
  private chunksKey(id: string): string {
    return `${this.prefix}blob:${id}:chunks`;
  }
  private ownerIndexKey(ownerId: string): string {
    return `${this.prefix}owner:${ownerId}:blobs`;
  }

  /** Starts a blob; chunks are coalesced to ~512 KB Redis list entries as they arrive. */
  createWriter(kind: BlobKind, ownerId: string, filename: string, id: string = randomUUID()): BlobWriter {
    return new BlobWriter(this, id, kind, ownerId, filename);
  }

  /**
   * A writer's private chunk list. Chunks land here and become the blob only at commit (RENAME), so
   * a writer that dies half way (worker killed) or a job that runs twice never leaves a blob with
   * duplicated or partial content under the final id.
   */
  private stagingKey(id: string, token: string): string {
    return `${this.prefix}blob:${id}:staging:${token}`;
  }

  /** The tokens of every writer that staged chunks for this id (so a commit can drop dead ones). */
  private stagingSetKey(id: string): string {
    return `${this.prefix}blob:${id}:stagers`;
  }

  /** @internal used by BlobWriter */
  async appendChunk(id: string, token: string, chunk: Buffer): Promise<void> {
    const key = this.stagingKey(id, token);
    const set = this.stagingSetKey(id);
    await this.redis
      .multi()
      .rpush(key, chunk)
      .expire(key, this.ttlSeconds)
      .sadd(set, token)
      .expire(set, this.ttlSeconds)
      .exec();
  }

  /** @internal used by BlobWriter: atomically replaces any earlier content of the same id. */
  async commit(meta: BlobMeta, token: string): Promise<void> {
    const idx = this.ownerIndexKey(meta.ownerId);
    const chunks = this.chunksKey(meta.id);
    // Chunks staged by earlier writers of the same id that never committed (a killed worker).
    const stale = (await this.redis.smembers(this.stagingSetKey(meta.id)))
      .filter((t) => t !== token)
      .map((t) => this.stagingKey(meta.id, t));
    const tx = this.redis.multi();
    if (meta.size > 0) tx.rename(this.stagingKey(meta.id, token), chunks);
    else tx.del(chunks);
    tx.del(this.stagingSetKey(meta.id), ...stale);
    const res = await tx
      .set(this.metaKey(meta.id), JSON.stringify(meta), 'EX', this.ttlSeconds)
      .expire(chunks, this.ttlSeconds)
      .sadd(idx, meta.id)
      .expire(idx, this.ttlSeconds)
      .exec();
    const failed = res?.find(([err]) => err);
    if (failed) throw failed[0] as Error;
  }

  /** @internal used by BlobWriter */
  async discardStaging(id: string, token: string): Promise<void> {
    await this.redis.multi().del(this.stagingKey(id, token)).srem(this.stagingSetKey(id), token).exec();
  }

  async getMeta(id: string, ownerId: string): Promise<BlobMeta> {
    if (!isSafeId(id)) throw new BlobNotFoundError();
    const raw = await this.redis.get(this.metaKey(id));
    if (!raw) throw new BlobNotFoundError();
    const meta = JSON.parse(raw) as BlobMeta;
    if (meta.ownerId !== ownerId) throw new BlobNotFoundError();
    return meta;
  }

  /** Streams the blob's bytes one Redis list entry at a time (bounded memory, honours backpressure). */
  async openRead(id: string, ownerId: string): Promise<{ meta: BlobMeta; stream: Readable }> {
    const meta = await this.getMeta(id, ownerId);
    const key = this.chunksKey(id);
    const count = await this.redis.llen(key);
    const redis = this.redis;
    let index = 0;
    const stream = new Readable({
      highWaterMark: 2,
      objectMode: false,
      read() {
        if (index >= count) {
          this.push(null);
          return;
        }
        const i = index++;
        redis.lindexBuffer(key, i).then(
          (buf) => {
            if (!buf) this.destroy(new BlobNotFoundError());
            else this.push(buf);
          },
          (err: Error) => this.destroy(err),
        );
      },
    });
    return { meta, stream };
  }

  async delete(id: string, ownerId: string): Promise<void> {
    await this.getMeta(id, ownerId);
    await this.redis
      .multi()
      .del(this.metaKey(id), this.chunksKey(id))
      .srem(this.ownerIndexKey(ownerId), id)
      .exec();
  }

  /** Removes every blob of an owner (account deletion). */
  async deleteAllOf(ownerId: string): Promise<number> {
    const idx = this.ownerIndexKey(ownerId);
    const ids = await this.redis.smembers(idx);
    if (ids.length === 0) return 0;
    const keys = ids.flatMap((id) => [this.metaKey(id), this.chunksKey(id)]);
    await this.redis.del(...keys, idx);
    return ids.length;
  }
}

export class BlobWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private total = 0;
  private writes: Promise<void> = Promise.resolve();
  private readonly token = randomUUID();

  constructor(
    private readonly store: EphemeralStore,
    readonly id: string,
    private readonly kind: BlobKind,
    private readonly ownerId: string,
    private readonly filename: string,
  ) {}

  get size(): number {
    return this.total;
  }

  /** Queues a chunk; resolves when the data before it is safely in Redis (use it for backpressure). */
  write(chunk: Buffer): Promise<void> {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    this.total += chunk.length;
    if (this.pendingBytes >= CHUNK_TARGET) this.flush();
    return this.writes;
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    const buf = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.writes = this.writes.then(() => this.store.appendChunk(this.id, this.token, buf));
  }

  async commit(info: Record<string, unknown>): Promise<BlobMeta> {
    this.flush();
    await this.writes;
    const meta: BlobMeta = {
      id: this.id,
      kind: this.kind,
      ownerId: this.ownerId,
      filename: this.filename,
      size: this.total,
      createdAt: new Date().toISOString(),
      info,
    };
    await this.store.commit(meta, this.token);
    return meta;
  }

  async abort(): Promise<void> {
    this.pending = [];
    await this.writes.catch(() => undefined);
    await this.store.discardStaging(this.id, this.token);
  }
}

function isSafeId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,100}$/.test(id);
}
