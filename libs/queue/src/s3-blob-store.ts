import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  ChecksumAlgorithm,
  CompleteMultipartUploadCommand,
  type CompletedPart,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type ServerSideEncryption,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { slotKey, type RedisClient } from './redis';
import {
  BlobNotFoundError,
  BlobStore,
  isSafeBlobId,
  readOwnedMeta,
  type BlobKind,
  type BlobMeta,
  type BlobWriter,
  type PendingUpload,
  type PresignedPut,
} from './blob-store';

// The `s3` BlobStore driver: bytes live in an S3-compatible bucket (AWS S3, MinIO, R2…), streamed in with
// multipart uploads and out with ranged-free GETs; the small meta record (owner, name, inspection) stays in
// Redis with the blob's TTL, so owner checks cost one GET. Every writer writes its own object and the
// commit points the meta at it: a writer killed half way or a job run twice never exposes partial bytes.
// Objects expire through a Redis sorted set the hourly cleanup reads (removeExpired); a bucket lifecycle
// rule is the second net (README).

export interface S3BlobStoreOptions {
  client: S3Client;
  /** Signs the URLs clients use (another endpoint than the servers'); defaults to `client`. */
  presignClient?: S3Client;
  bucket: string;
  redis: RedisClient;
  /** Redis key prefix (the app's REDIS_PREFIX). */
  redisPrefix: string;
  /** Object key prefix inside the bucket. */
  keyPrefix?: string;
  ttlSeconds: number;
  /** Server-side encryption asked for on every object; null when the store has none. */
  sse?: ServerSideEncryption | null;
  /** Multipart part size in bytes (≥ 5 MiB); memory per writer is about partSize × (queueSize + 1). */
  partSize?: number;
  queueSize?: number;
}

const MIN_PART = 5 * 1024 * 1024;
/** Objects whose writer died are deleted this long after their expected end of life. */
const ORPHAN_GRACE_MS = 10 * 60_000;

export class S3BlobStore extends BlobStore {
  readonly driver = 's3' as const;
  readonly ttlSeconds: number;
  readonly client: S3Client;
  private readonly presignClient: S3Client;
  readonly bucket: string;
  private readonly redis: RedisClient;
  private readonly prefix: string;
  private readonly keyPrefix: string;
  private readonly sse: ServerSideEncryption | null;
  /** @internal */ readonly partSize: number;
  /** @internal */ readonly queueSize: number;
  /** @internal part buffers, reused across writers */ readonly partPool: PartPool;

  constructor(o: S3BlobStoreOptions) {
    super();
    this.client = o.client;
    this.presignClient = o.presignClient ?? o.client;
    this.bucket = o.bucket;
    this.redis = o.redis;
    this.prefix = o.redisPrefix;
    this.keyPrefix = o.keyPrefix ?? '';
    this.ttlSeconds = o.ttlSeconds;
    this.sse = o.sse ?? null;
    // The smallest parts S3 allows, one in flight while the next fills: ~10 MB a writer.
    this.partSize = Math.max(MIN_PART, o.partSize ?? MIN_PART);
    this.queueSize = Math.max(1, o.queueSize ?? 1);
    this.partPool = new PartPool(this.partSize, 4);
  }

  // A blob's meta and its owner's index share the owner as Redis Cluster hash tag (one MULTI touches both).
  private metaKey(ownerId: string, id: string): string {
    return slotKey(this.prefix, `owner:${ownerId}`, `s3blob:${id}:meta`);
  }
  private ownerIndexKey(ownerId: string): string {
    return slotKey(this.prefix, `owner:${ownerId}`, 's3blobs');
  }
  private pendingKey(uploadId: string): string {
    return `${this.prefix}s3pending:${uploadId}`;
  }
  /** Every object with the time (ms) after which the cleanup deletes it. */
  private expiryKey(): string {
    return `${this.prefix}s3blob:expiry`;
  }
  /** @internal */
  objectKeyFor(kind: BlobKind, id: string, token: string): string {
    return `${this.keyPrefix}${kind}s/${id}/${token}`;
  }
  private pendingObjectKey(uploadId: string): string {
    return `${this.keyPrefix}direct/${uploadId}`;
  }

  /** @internal */
  sseParams(): { ServerSideEncryption?: ServerSideEncryption } {
    return this.sse ? { ServerSideEncryption: this.sse } : {};
  }

  /** @internal the object is deleted by the cleanup after `ms` unless a commit moves it. */
  async scheduleExpiry(objectKey: string, atMs: number): Promise<void> {
    await this.redis.zadd(this.expiryKey(), atMs, objectKey);
  }

  createWriter(kind: BlobKind, ownerId: string, filename: string, id: string = randomUUID()): BlobWriter {
    return new S3BlobWriter(this, id, kind, ownerId, filename);
  }

  /** @internal used by S3BlobWriter: points the meta at the new object, then drops the one it replaced. */
  async commit(meta: BlobMeta): Promise<void> {
    const old = await this.redis.get(this.metaKey(meta.ownerId, meta.id));
    const idx = this.ownerIndexKey(meta.ownerId);
    const expiresAt = Date.parse(meta.createdAt) + this.ttlSeconds * 1000;
    const res = await this.redis
      .multi()
      .set(this.metaKey(meta.ownerId, meta.id), JSON.stringify(meta), 'EX', this.ttlSeconds)
      .sadd(idx, meta.id)
      .expire(idx, this.ttlSeconds)
      .exec();
    const failed = res?.find(([err]) => err);
    if (failed) throw failed[0] as Error;
    await this.scheduleExpiry(meta.objectKey as string, expiresAt + ORPHAN_GRACE_MS);
    const previous = old ? (JSON.parse(old) as BlobMeta).objectKey : undefined;
    if (previous && previous !== meta.objectKey) await this.deleteObjects([previous]).catch(() => undefined);
  }

  getMeta<I = Record<string, unknown>>(id: string, ownerId: string): Promise<BlobMeta<I>> {
    return readOwnedMeta<I>(this.redis, id, ownerId, (owner, blob) => this.metaKey(owner, blob));
  }

  async openRead<I = Record<string, unknown>>(
    id: string,
    ownerId: string,
  ): Promise<{ meta: BlobMeta<I>; stream: Readable }> {
    const meta = await this.getMeta<I>(id, ownerId);
    return { meta, stream: await this.openObject(meta.objectKey as string) };
  }

  private async openObject(key: string): Promise<Readable> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return res.Body as Readable;
    } catch (err) {
      if (isMissing(err)) throw new BlobNotFoundError();
      throw err;
    }
  }

  async delete(id: string, ownerId: string): Promise<void> {
    const meta = await this.getMeta(id, ownerId);
    await this.redis.multi().del(this.metaKey(ownerId, id)).srem(this.ownerIndexKey(ownerId), id).exec();
    await this.deleteObjects([meta.objectKey as string]);
  }

  async deleteAllOf(ownerId: string): Promise<number> {
    const idx = this.ownerIndexKey(ownerId);
    const ids = await this.redis.smembers(idx);
    if (ids.length === 0) return 0;
    const raws = await Promise.all(ids.map((id) => this.redis.get(this.metaKey(ownerId, id))));
    const keys = raws
      .map((raw) => (raw ? (JSON.parse(raw) as BlobMeta) : null))
      .filter((m): m is BlobMeta => !!m && m.ownerId === ownerId)
      .map((m) => m.objectKey as string);
    await this.redis.del(...ids.map((id) => this.metaKey(ownerId, id)), idx);
    await this.deleteObjects(keys);
    return ids.length;
  }

  async presignPut(
    ownerId: string,
    opts: { size: number; contentType: string; expiresInSeconds: number; info: Record<string, unknown> },
  ): Promise<PresignedPut> {
    const uploadId = randomUUID();
    const key = this.pendingObjectKey(uploadId);
    const expiresAt = new Date(Date.now() + opts.expiresInSeconds * 1000).toISOString();
    const pending: PendingUpload = {
      uploadId,
      ownerId,
      size: opts.size,
      contentType: opts.contentType,
      expiresAt,
      info: opts.info,
    };
    // The record outlives the URL by the blob TTL: a PUT that finished just in time can still complete.
    await this.redis.set(
      this.pendingKey(uploadId),
      JSON.stringify(pending),
      'EX',
      opts.expiresInSeconds + this.ttlSeconds,
    );
    await this.scheduleExpiry(key, Date.now() + (opts.expiresInSeconds + this.ttlSeconds) * 1000);
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ContentLength: opts.size,
      ContentType: opts.contentType,
      ...this.sseParams(),
    });
    const headers: Record<string, string> = { 'Content-Type': opts.contentType };
    if (this.sse) headers['x-amz-server-side-encryption'] = this.sse;
    // Length, type and encryption are signed headers: storage refuses a PUT of any other size or type.
    const url = await getSignedUrl(this.presignClient, command, {
      expiresIn: opts.expiresInSeconds,
      signableHeaders: new Set(['content-length', 'content-type', 'x-amz-server-side-encryption']),
      unhoistableHeaders: new Set(['x-amz-server-side-encryption']),
    });
    return { uploadId, url, method: 'PUT', headers, expiresAt };
  }

  async presignGet(
    id: string,
    ownerId: string,
    opts: { filename: string; contentType: string; expiresInSeconds: number },
  ): Promise<string> {
    const meta = await this.getMeta(id, ownerId);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: meta.objectKey,
      ResponseContentDisposition: `attachment; filename="${opts.filename.replace(/["\\\r\n]/g, '')}"`,
      ResponseContentType: opts.contentType,
      ResponseCacheControl: 'no-store',
    });
    return getSignedUrl(this.presignClient, command, { expiresIn: opts.expiresInSeconds });
  }

  async openPending<I = Record<string, unknown>>(
    uploadId: string,
    ownerId: string,
  ): Promise<{ pending: PendingUpload<I>; size: number | null; open(): Promise<Readable> }> {
    if (!isSafeBlobId(uploadId)) throw new BlobNotFoundError();
    const raw = await this.redis.get(this.pendingKey(uploadId));
    if (!raw) throw new BlobNotFoundError();
    const pending = JSON.parse(raw) as PendingUpload<I>;
    if (pending.ownerId !== ownerId) throw new BlobNotFoundError();
    const key = this.pendingObjectKey(uploadId);
    let size: number | null = null;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      size = head.ContentLength ?? 0;
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
    return { pending, size, open: () => this.openObject(key) };
  }

  async adoptPending(
    uploadId: string,
    ownerId: string,
    kind: BlobKind,
    filename: string,
    info: Record<string, unknown>,
  ): Promise<BlobMeta> {
    const { size } = await this.openPending(uploadId, ownerId);
    if (size === null) throw new BlobNotFoundError();
    const meta: BlobMeta = {
      id: uploadId,
      kind,
      ownerId,
      filename,
      size,
      createdAt: new Date().toISOString(),
      info,
      objectKey: this.pendingObjectKey(uploadId),
    };
    await this.commit(meta);
    await this.redis.del(this.pendingKey(uploadId));
    return meta;
  }

  async discardPending(uploadId: string, ownerId: string): Promise<void> {
    await this.openPending(uploadId, ownerId);
    await this.redis.del(this.pendingKey(uploadId));
    await this.deleteObjects([this.pendingObjectKey(uploadId)]);
  }

  async removeExpired(now: Date = new Date()): Promise<number> {
    let removed = 0;
    for (;;) {
      const keys = await this.redis.zrangebyscore(this.expiryKey(), '-inf', now.getTime(), 'LIMIT', 0, 500);
      if (keys.length === 0) return removed;
      await this.deleteObjects(keys);
      await this.redis.zrem(this.expiryKey(), ...keys);
      removed += keys.length;
    }
  }

  /** @internal */
  async deleteObjects(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      if (batch.length === 1) {
        await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: batch[0] }));
      } else {
        await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
      }
    }
  }
}

/**
 * The part buffers of every writer in the process. A part's bytes are copied once, from the incoming
 * chunk into a pooled buffer that is sent as it is and reused when its request ends: no copy to assemble
 * a part and no dead 5 MiB buffers waiting for V8's external-memory GC. (lib-storage's Upload
 * concatenated each part from the stream's chunks and dropped it after sending: five concurrent 124 MB
 * uploads took an api from 159 MB to 339 MB.)
 */
class PartPool {
  private readonly free: Buffer[] = [];

  constructor(
    readonly size: number,
    private readonly keep: number,
  ) {}

  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.size);
  }

  give(b: Buffer): void {
    if (this.free.length < this.keep) this.free.push(b);
  }
}

/**
 * Streams into one object: a multipart upload once the first part is full (at most queueSize parts in
 * flight, so about partSize × (queueSize + 1) bytes held), a single PUT for a smaller object.
 */
class S3BlobWriter implements BlobWriter {
  private readonly objectKey: string;
  private readonly contentType: string;
  private part: Buffer | null = null;
  private filled = 0;
  private partCount = 0;
  private uploadId: Promise<string> | null = null;
  private readonly parts: CompletedPart[] = [];
  private readonly inflight = new Set<Promise<void>>();
  private failure: unknown = null;
  private total = 0;
  private readonly started: Promise<void>;

  constructor(
    private readonly store: S3BlobStore,
    readonly id: string,
    private readonly kind: BlobKind,
    private readonly ownerId: string,
    private readonly filename: string,
  ) {
    this.objectKey = store.objectKeyFor(kind, id, randomUUID());
    this.contentType = kind === 'result' ? 'text/csv; charset=utf-8' : 'text/csv';
    // Registered before a byte is sent: if this process dies mid-write the cleanup still finds the object.
    this.started = store.scheduleExpiry(
      this.objectKey,
      Date.now() + store.ttlSeconds * 1000 + ORPHAN_GRACE_MS,
    );
  }

  get size(): number {
    return this.total;
  }

  async write(chunk: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    this.total += chunk.length;
    let at = 0;
    while (at < chunk.length) {
      const part = (this.part ??= this.store.partPool.take());
      const n = chunk.copy(part, this.filled, at);
      this.filled += n;
      at += n;
      if (this.filled === part.length) await this.sendPart();
    }
  }

  /** Sends the part being filled, once fewer than queueSize are in flight (that wait is the backpressure). */
  private async sendPart(): Promise<void> {
    const body = this.part as Buffer;
    const length = this.filled;
    this.part = null;
    this.filled = 0;
    const partNumber = ++this.partCount;
    this.uploadId ??= this.createUpload();
    while (this.inflight.size >= this.store.queueSize) await Promise.race(this.inflight);
    if (this.failure) {
      this.store.partPool.give(body);
      throw this.failure;
    }
    const uploadId = this.uploadId;
    const sending = (async () => {
      try {
        const UploadId = await uploadId;
        const res = await this.store.client.send(
          new UploadPartCommand({
            Bucket: this.store.bucket,
            Key: this.objectKey,
            UploadId,
            PartNumber: partNumber,
            Body: body.subarray(0, length),
            ContentLength: length,
          }),
        );
        if (!res.ETag) throw new Error(`The object store answered part ${partNumber} without an ETag.`);
        this.parts.push({
          PartNumber: partNumber,
          ETag: res.ETag,
          // With checksums on (the SDK's default), the completion must repeat each part's checksum.
          ...(res.ChecksumCRC32 && { ChecksumCRC32: res.ChecksumCRC32 }),
          ...(res.ChecksumCRC32C && { ChecksumCRC32C: res.ChecksumCRC32C }),
          ...(res.ChecksumCRC64NVME && { ChecksumCRC64NVME: res.ChecksumCRC64NVME }),
          ...(res.ChecksumSHA1 && { ChecksumSHA1: res.ChecksumSHA1 }),
          ...(res.ChecksumSHA256 && { ChecksumSHA256: res.ChecksumSHA256 }),
        });
      } catch (e) {
        this.failure ??= e;
      } finally {
        // Only now: the request has ended, so no byte of this buffer is still to be sent.
        this.store.partPool.give(body);
      }
    })();
    this.inflight.add(sending);
    void sending.then(() => this.inflight.delete(sending));
  }

  private async createUpload(): Promise<string> {
    // As the SDK's own Upload does: with request checksums on, the multipart upload is a CRC32 one.
    const checksums = await this.store.client.config.requestChecksumCalculation();
    const res = await this.store.client.send(
      new CreateMultipartUploadCommand({
        Bucket: this.store.bucket,
        Key: this.objectKey,
        ContentType: this.contentType,
        ...(checksums === 'WHEN_SUPPORTED' ? { ChecksumAlgorithm: ChecksumAlgorithm.CRC32 } : {}),
        ...this.store.sseParams(),
      }),
    );
    if (!res.UploadId) throw new Error('The object store started a multipart upload without an id.');
    return res.UploadId;
  }

  private async settle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all(this.inflight);
  }

  async commit(info: Record<string, unknown>): Promise<BlobMeta> {
    await this.started;
    if (this.failure) throw this.failure;
    if (this.uploadId === null) {
      // Smaller than one part: a single PUT.
      const part = this.part;
      this.part = null;
      try {
        await this.store.client.send(
          new PutObjectCommand({
            Bucket: this.store.bucket,
            Key: this.objectKey,
            Body: part ? part.subarray(0, this.filled) : Buffer.alloc(0),
            ContentLength: this.filled,
            ContentType: this.contentType,
            ...this.store.sseParams(),
          }),
        );
      } finally {
        if (part) this.store.partPool.give(part);
        this.filled = 0;
      }
    } else {
      if (this.filled > 0) await this.sendPart(); // the last part may be short
      await this.settle();
      if (this.failure) throw this.failure;
      const parts = [...this.parts].sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0));
      await this.store.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.store.bucket,
          Key: this.objectKey,
          UploadId: await this.uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    }
    const meta: BlobMeta = {
      id: this.id,
      kind: this.kind,
      ownerId: this.ownerId,
      filename: this.filename,
      size: this.total,
      createdAt: new Date().toISOString(),
      info,
      objectKey: this.objectKey,
    };
    await this.store.commit(meta);
    return meta;
  }

  async abort(): Promise<void> {
    this.failure ??= new Error('The upload was aborted.');
    await this.started.catch(() => undefined);
    await this.settle();
    if (this.part) this.store.partPool.give(this.part);
    this.part = null;
    const uploadId = await this.uploadId?.catch(() => null);
    if (uploadId) {
      await this.store.client
        .send(
          new AbortMultipartUploadCommand({
            Bucket: this.store.bucket,
            Key: this.objectKey,
            UploadId: uploadId,
          }),
        )
        .catch(() => undefined);
    }
    await this.store.deleteObjects([this.objectKey]).catch(() => undefined);
  }
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
