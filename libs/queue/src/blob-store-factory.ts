import { S3Client, type ServerSideEncryption } from '@aws-sdk/client-s3';
import type { RedisClient } from './redis';
import type { BlobStore } from './blob-store';
import { EphemeralStore } from './ephemeral-store';
import { S3BlobStore } from './s3-blob-store';

// Builds the configured BlobStore driver. Apps read their env in config/ and pass the result here.

export type BlobStoreSettings =
  | { driver: 'memory' }
  | {
      driver: 's3';
      bucket: string;
      region: string;
      /** Unset = AWS's own endpoint for the region. */
      endpoint?: string;
      /** Where clients reach the store, when it differs from `endpoint`: presigned URLs point there. */
      publicEndpoint?: string;
      forcePathStyle: boolean;
      /** 'none' = ask for no server-side encryption (stores without it, e.g. MinIO without KMS). */
      sse: 'AES256' | 'aws:kms' | 'none';
      keyPrefix: string;
    };

export function createS3Client(
  s: Extract<BlobStoreSettings, { driver: 's3' }>,
  endpoint = s.endpoint,
): S3Client {
  // Credentials come from the SDK's usual chain (env, shared files, instance or task roles).
  return new S3Client({
    region: s.region,
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: s.forcePathStyle,
    // Checksums only where S3 requires them: several S3-compatible stores reject the newer defaults,
    // and a presigned PUT must not demand a checksum header the browser cannot compute.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export function createBlobStore(
  s: BlobStoreSettings,
  redis: RedisClient,
  redisPrefix: string,
  ttlSeconds: number,
): BlobStore {
  if (s.driver === 'memory') return new EphemeralStore(redis, redisPrefix, ttlSeconds);
  return new S3BlobStore({
    client: createS3Client(s),
    ...(s.publicEndpoint ? { presignClient: createS3Client(s, s.publicEndpoint) } : {}),
    bucket: s.bucket,
    redis,
    redisPrefix,
    keyPrefix: s.keyPrefix,
    ttlSeconds,
    sse: s.sse === 'none' ? null : (s.sse as ServerSideEncryption),
  });
}

/** The origin presigned URLs point at (the web app's CSP must allow it), or null for the memory driver. */
export function blobStoreOrigin(s: BlobStoreSettings): string | null {
  if (s.driver !== 's3') return null;
  const endpoint = s.publicEndpoint ?? s.endpoint;
  const url = new URL(endpoint ?? `https://s3.${s.region}.amazonaws.com`);
  if (!s.forcePathStyle) url.hostname = `${s.bucket}.${url.hostname}`;
  return url.origin;
}
