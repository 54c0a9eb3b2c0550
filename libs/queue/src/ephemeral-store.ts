import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Redis } from 'ioredis';

// Ephemeral file store: uploads and job results live in Redis as a list of binary chunks plus a
// JSON meta record, both with a TTL. Every read checks the owner; a wrong owner looks like "not found".

export type BlobKind = 'upload' | 'result';

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

  /** @internal used by BlobWriter */
  async appendChunk(id: string, chunk: Buffer): Promise<void> {
    const key = this.chunksKey(id);
    await this.redis.multi().rpush(key, chunk).expire(key, this.ttlSeconds).exec();
  }

  /** @internal used by BlobWriter */
  async commit(meta: BlobMeta): Promise<void> {
    const idx = this.ownerIndexKey(meta.ownerId);
    await this.redis
      .multi()
      .set(this.metaKey(meta.id), JSON.stringify(meta), 'EX', this.ttlSeconds)
      .expire(this.chunksKey(meta.id), this.ttlSeconds)
      .sadd(idx, meta.id)
      .expire(idx, this.ttlSeconds)
      .exec();
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

  /** @internal */
  async discard(id: string): Promise<void> {
    await this.redis.del(this.metaKey(id), this.chunksKey(id));
  }
}

export class BlobWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private total = 0;
  private writes: Promise<void> = Promise.resolve();

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
    this.writes = this.writes.then(() => this.store.appendChunk(this.id, buf));
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
    await this.store.commit(meta);
    return meta;
  }

  async abort(): Promise<void> {
    this.pending = [];
    await this.writes.catch(() => undefined);
    await this.store.discard(this.id);
  }
}

function isSafeId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,100}$/.test(id);
}
