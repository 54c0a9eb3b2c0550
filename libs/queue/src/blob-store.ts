import type { Readable } from 'node:stream';

// The port every file (uploads, job results) goes through. Two drivers implement it: `memory` (bytes in
// Redis, the embedded default) and `s3` (bytes in an S3-compatible bucket, metadata in Redis). Both pass
// the same contract suite (libs/queue/test/blob-store.contract.ts). Every read is owner-checked: someone
// else's id behaves exactly like a missing one.

/** `review`, `issues`, `patch`: a run's review session (libs/queue/src/review-store.ts). */
export type BlobKind = 'upload' | 'result' | 'review' | 'issues' | 'patch';
export type BlobDriver = 'memory' | 's3';

/**
 * What the store keeps about a blob. `I` is the shape of the caller's own details (`info`, what it passed to
 * commit): a reader that knows what it stored says so (`getMeta<UploadInfo>(…)`) instead of casting.
 */
export interface BlobMeta<I = Record<string, unknown>> {
  id: string;
  kind: BlobKind;
  ownerId: string;
  filename: string;
  size: number;
  createdAt: string;
  /** Free-form, JSON-safe details (headers, row count, encoding…). */
  info: I;
  /** s3 driver: the object that holds the bytes (each writer writes its own; the commit points here). */
  objectKey?: string;
}

export const DEFAULT_BLOB_TTL_SECONDS = 3600;

export class BlobNotFoundError extends Error {
  readonly code = 'NOT_FOUND';
  constructor() {
    super('File not found or expired. Upload it again.');
  }
}

/** The driver cannot do this (e.g. presigned URLs with the memory driver). */
export class BlobStoreUnsupportedError extends Error {
  readonly code = 'STORAGE_FEATURE_UNAVAILABLE';
}

/** A blob being written: chunks go in with backpressure; nothing is visible under its id before commit. */
export interface BlobWriter {
  readonly id: string;
  readonly size: number;
  /** Resolves when the chunk may be followed by the next one (await it for backpressure). */
  write(chunk: Buffer): Promise<void>;
  /** Makes the bytes the blob's content, replacing any earlier content of the same id at once. */
  commit(info: Record<string, unknown>): Promise<BlobMeta>;
  /** Drops what was written; the id keeps its earlier content, if any. */
  abort(): Promise<void>;
}

export interface PresignedPut {
  uploadId: string;
  url: string;
  method: 'PUT';
  /** Headers the client must send exactly as given (they are part of the signature). */
  headers: Record<string, string>;
  expiresAt: string;
}

/** What a presigned upload promised: checked again when the client says it is done. */
export interface PendingUpload<I = Record<string, unknown>> {
  uploadId: string;
  ownerId: string;
  size: number;
  contentType: string;
  expiresAt: string;
  /** Caller's own details (kind, file name…), given back as they were. */
  info: I;
}

export abstract class BlobStore {
  abstract readonly driver: BlobDriver;
  /** Seconds a blob lives after its commit. */
  abstract readonly ttlSeconds: number;

  abstract createWriter(kind: BlobKind, ownerId: string, filename: string, id?: string): BlobWriter;

  /** Metadata of an owner's blob (stat); BlobNotFoundError when missing, expired or someone else's. */
  abstract getMeta<I = Record<string, unknown>>(id: string, ownerId: string): Promise<BlobMeta<I>>;

  /** Streams the blob's bytes with bounded memory. */
  abstract openRead<I = Record<string, unknown>>(
    id: string,
    ownerId: string,
  ): Promise<{ meta: BlobMeta<I>; stream: Readable }>;

  abstract delete(id: string, ownerId: string): Promise<void>;

  /** Removes every blob of an owner (account deletion); returns how many. */
  abstract deleteAllOf(ownerId: string): Promise<number>;

  /**
   * A URL the client may PUT exactly `size` bytes to, valid for `expiresInSeconds`. The bytes become a
   * blob only through `adoptPending` (after the caller has checked them). Memory driver: unsupported.
   */
  abstract presignPut(
    ownerId: string,
    opts: { size: number; contentType: string; expiresInSeconds: number; info: Record<string, unknown> },
  ): Promise<PresignedPut>;

  /** A short-lived URL that downloads the blob directly, or null when the driver serves bytes itself. */
  abstract presignGet(
    id: string,
    ownerId: string,
    opts: { filename: string; contentType: string; expiresInSeconds: number },
  ): Promise<string | null>;

  /** The presigned upload's promise and the bytes that arrived (size 0 / no stream when nothing came). */
  abstract openPending<I = Record<string, unknown>>(
    uploadId: string,
    ownerId: string,
  ): Promise<{ pending: PendingUpload<I>; size: number | null; open(): Promise<Readable> }>;

  /** Turns a checked presigned upload into a blob under the same id. */
  abstract adoptPending(
    uploadId: string,
    ownerId: string,
    kind: BlobKind,
    filename: string,
    info: Record<string, unknown>,
  ): Promise<BlobMeta>;

  /** Forgets a presigned upload and deletes whatever bytes arrived for it. */
  abstract discardPending(uploadId: string, ownerId: string): Promise<void>;

  /** Deletes bytes past their lifetime that nothing expires by itself (the hourly cleanup calls it). */
  abstract removeExpired(now?: Date): Promise<number>;

  /** Writes a whole stream as one blob (with backpressure); aborts on a stream error. */
  async put(
    kind: BlobKind,
    ownerId: string,
    filename: string,
    body: AsyncIterable<Buffer | Uint8Array | string>,
    info: Record<string, unknown> = {},
    id?: string,
  ): Promise<BlobMeta> {
    const writer = this.createWriter(kind, ownerId, filename, id);
    try {
      for await (const chunk of body) {
        await writer.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      }
      return await writer.commit(info);
    } catch (err) {
      await writer.abort().catch(() => undefined);
      throw err;
    }
  }
}

export function isSafeBlobId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,100}$/.test(id);
}

/**
 * Both drivers keep a blob's BlobMeta as JSON under one Redis key: reads it for `ownerId`, answering
 * BlobNotFoundError for an unsafe id, a missing key or another owner's blob (the same answer for all three).
 */
export async function readOwnedMeta<I>(
  redis: { get(key: string): Promise<string | null> },
  id: string,
  ownerId: string,
  metaKey: (ownerId: string, id: string) => string,
): Promise<BlobMeta<I>> {
  if (!isSafeBlobId(id)) throw new BlobNotFoundError();
  const raw = await redis.get(metaKey(ownerId, id));
  if (!raw) throw new BlobNotFoundError();
  const meta = JSON.parse(raw) as BlobMeta<I>;
  if (meta.ownerId !== ownerId) throw new BlobNotFoundError();
  return meta;
}
