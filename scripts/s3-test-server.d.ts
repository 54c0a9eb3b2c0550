export interface S3Refused {
  method: string;
  url: string;
  status: number;
  code: string;
  message: string;
}
export interface S3TestServer {
  /** The signature-verifying front (AWS SigV4, as S3 checks it): what every client uses. */
  endpoint: string;
  /** s3rver itself, which accepts any signature: only for a test that plays a store that checks nothing. */
  unverifiedEndpoint: string;
  /** The requests the verifier refused, newest last (in-process servers only; empty for spawned ones). */
  refusals: S3Refused[];
  bucket: string;
  /** The variables that point the api and worker at this server. */
  env: Record<string, string>;
  close(): Promise<void>;
}
export function startS3TestServer(opts?: { bucket?: string; port?: number }): Promise<S3TestServer>;
/** The same server in a child process of its own (benchmarks). */
export function spawnS3TestServer(opts?: { bucket?: string }): Promise<S3TestServer>;
/** BlobStore settings (libs/queue's createBlobStore) for the s3 driver on `server`, objects under `keyPrefix`. */
export function s3StoreSettings(
  server: Pick<S3TestServer, 'bucket' | 'endpoint'>,
  keyPrefix: string,
): {
  driver: 's3';
  bucket: string;
  region: string;
  endpoint: string;
  forcePathStyle: true;
  sse: 'AES256';
  keyPrefix: string;
};
