import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { slotKey, type RedisClient } from './redis';
import {
  BlobNotFoundError,
  BlobStore,
  BlobStoreUnsupportedError,
  DEFAULT_BLOB_TTL_SECONDS,
  readOwnedMeta,
  type BlobKind,
  type BlobMeta,
  type BlobWriter as BlobWriterPort,
  type PendingUpload,
  type PresignedPut,
} from './blob-store';

// The `memory` BlobStore driver: uploads and job results live in Redis as a list of binary chunks plus a
// JSON meta record, both with a TTL (Redis expires them; nothing is kept on disk). Every read checks the
// owner; a wrong owner looks like "not found".

const CHUNK_TARGET = 512 * 1024;
/** Chunks a writer may have on the wire at once (about 4 MB). */
const MAX_INFLIGHT = 8;

const NO_PRESIGN =
  'Direct uploads need object storage: the server keeps files in memory. Ask the operator to set BLOB_STORE=s3.';

export class EphemeralStore extends BlobStore {
  readonly driver = 'memory' as const;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    readonly ttlSeconds = DEFAULT_BLOB_TTL_SECONDS,
  ) {
    super();
  }

  // Every key of a blob carries its owner as the Redis Cluster hash tag: a commit (one MULTI over the
  // chunks, meta, staging keys and the owner's index) and an account deletion stay within one slot.
  private metaKey(ownerId: string, id: string): string {
    return slotKey(this.prefix, `owner:${ownerId}`, `blob:${id}:meta`);
  }
  private chunksKey(ownerId: string, id: string): string {
    return slotKey(this.prefix, `owner:${ownerId}`, `blob:${id}:chunks`);
  }
  private ownerIndexKey(ownerId: string): string {
    return slotKey(this.prefix, `owner:${ownerId}`, 'blobs');
  }

  /** Starts a blob; chunks are coalesced to ~512 KB Redis list entries as they arrive. */
  createWriter(
    kind: BlobKind,
    ownerId: string,
    filename: string,
    id: string = randomUUID(),
  ): RedisBlobWriter {
    return new RedisBlobWriter(this, id, kind, ownerId, filename);
  }

  /**
   * A writer's private chunk list. Chunks land here and become the blob only at commit (RENAME), so
   * a writer that dies half way (worker killed) or a job that runs twice never leaves a blob with
   * duplicated or partial content under the final id.
   */
  private stagingKey(ownerId: string, id: string, token: string): string {
    return slotKey(this.prefix, `owner:${ownerId}`, `blob:${id}:staging:${token}`);
  }

  /** The tokens of every writer that staged chunks for this id (so a commit can drop dead ones). */
  private stagingSetKey(ownerId: string, id: string): string {
    return slotKey(this.prefix, `owner:${ownerId}`, `blob:${id}:stagers`);
  }

  /**
   * @internal used by BlobWriter. The first chunk also sets the staging TTLs and registers the writer;
   * later ones are a bare RPUSH (one connection keeps them in order).
   */
  async appendChunk(ownerId: string, id: string, token: string, chunk: Buffer, first = true): Promise<void> {
    const key = this.stagingKey(ownerId, id, token);
    if (!first) {
      await this.redis.rpush(key, chunk);
      return;
    }
    const set = this.stagingSetKey(ownerId, id);
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
    const chunks = this.chunksKey(meta.ownerId, meta.id);
    // Chunks staged by earlier writers of the same id that never committed (a killed worker).
    const stale = (await this.redis.smembers(this.stagingSetKey(meta.ownerId, meta.id)))
      .filter((t) => t !== token)
      .map((t) => this.stagingKey(meta.ownerId, meta.id, t));
    const tx = this.redis.multi();
    if (meta.size > 0) tx.rename(this.stagingKey(meta.ownerId, meta.id, token), chunks);
    else tx.del(chunks);
    tx.del(this.stagingSetKey(meta.ownerId, meta.id), ...stale);
    const res = await tx
      .set(this.metaKey(meta.ownerId, meta.id), JSON.stringify(meta), 'EX', this.ttlSeconds)
      .expire(chunks, this.ttlSeconds)
      .sadd(idx, meta.id)
      .expire(idx, this.ttlSeconds)
      .exec();
    const failed = res?.find(([err]) => err);
    if (failed) throw failed[0] as Error;
  }

  /** @internal used by BlobWriter */
  async discardStaging(ownerId: string, id: string, token: string): Promise<void> {
    await this.redis
      .multi()
      .del(this.stagingKey(ownerId, id, token))
      .srem(this.stagingSetKey(ownerId, id), token)
      .exec();
  }

  getMeta<I = Record<string, unknown>>(id: string, ownerId: string): Promise<BlobMeta<I>> {
    return readOwnedMeta<I>(this.redis, id, ownerId, (owner, blob) => this.metaKey(owner, blob));
  }

  /** Streams the blob's bytes one Redis list entry at a time (bounded memory, honours backpressure). */
  async openRead<I = Record<string, unknown>>(
    id: string,
    ownerId: string,
  ): Promise<{ meta: BlobMeta<I>; stream: Readable }> {
    const meta = await this.getMeta<I>(id, ownerId);
    const key = this.chunksKey(ownerId, id);
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
      .del(this.metaKey(ownerId, id), this.chunksKey(ownerId, id))
      .srem(this.ownerIndexKey(ownerId), id)
      .exec();
  }

  presignPut(): Promise<PresignedPut> {
    return Promise.reject(new BlobStoreUnsupportedError(NO_PRESIGN));
  }

  /** Bytes are served by the api itself. */
  presignGet(): Promise<string | null> {
    return Promise.resolve(null);
  }

  openPending<I = Record<string, unknown>>(): Promise<{
    pending: PendingUpload<I>;
    size: number | null;
    open(): Promise<Readable>;
  }> {
    return Promise.reject(new BlobStoreUnsupportedError(NO_PRESIGN));
  }

  adoptPending(): Promise<BlobMeta> {
    return Promise.reject(new BlobStoreUnsupportedError(NO_PRESIGN));
  }

  discardPending(): Promise<void> {
    return Promise.reject(new BlobStoreUnsupportedError(NO_PRESIGN));
  }

  /** Redis expires every key by its TTL: nothing to sweep. */
  removeExpired(): Promise<number> {
    return Promise.resolve(0);
  }

  /** Removes every blob of an owner (account deletion). */
  async deleteAllOf(ownerId: string): Promise<number> {
    const idx = this.ownerIndexKey(ownerId);
    const ids = await this.redis.smembers(idx);
    if (ids.length === 0) return 0;
    const keys = ids.flatMap((id) => [this.metaKey(ownerId, id), this.chunksKey(ownerId, id)]);
    await this.redis.del(...keys, idx);
    return ids.length;
  }
}

export class RedisBlobWriter implements BlobWriterPort {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private total = 0;
  /** Chunks sent and not yet acknowledged, oldest first (Redis answers in order). */
  private inflight: Promise<void>[] = [];
  private chunks = 0;
  private failure: unknown = null;
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

  /**
   * Queues a chunk; resolves at once while fewer than MAX_INFLIGHT chunks await Redis' answer, else when
   * the oldest is stored (backpressure without a round trip per chunk).
   */
  async write(chunk: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    this.total += chunk.length;
    if (this.pendingBytes >= CHUNK_TARGET) this.flush();
    while (this.inflight.length >= MAX_INFLIGHT) await this.inflight[0];
    if (this.failure) throw this.failure;
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    const buf = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    const sent: Promise<void> = this.store
      .appendChunk(this.ownerId, this.id, this.token, buf, this.chunks++ === 0)
      .then(
        () => {
          this.inflight.splice(this.inflight.indexOf(sent), 1);
        },
        (err: unknown) => {
          this.failure ??= err;
          this.inflight.splice(this.inflight.indexOf(sent), 1);
        },
      );
    this.inflight.push(sent);
  }

  private async settled(): Promise<void> {
    while (this.inflight.length > 0) await this.inflight[0];
  }

  async commit(info: Record<string, unknown>): Promise<BlobMeta> {
    this.flush();
    await this.settled();
    if (this.failure) throw this.failure;
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
    await this.settled();
    await this.store.discardStaging(this.ownerId, this.id, this.token);
  }
}
