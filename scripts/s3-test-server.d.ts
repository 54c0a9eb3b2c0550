export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** The variables that point the api and worker at this server. */
  env: Record<string, string>;
  close(): Promise<void>;
}
export function startS3TestServer(opts?: { bucket?: string; port?: number }): Promise<S3TestServer>;
/** The same server in a child process of its own (benchmarks). */
export function spawnS3TestServer(opts?: { bucket?: string }): Promise<S3TestServer>;
