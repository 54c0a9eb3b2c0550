import type { IncomingMessage } from 'node:http';

/** SHA-256 / HMAC-SHA256 in the shape the SDK's SignatureV4 takes as its `sha256` constructor. */
export class NodeSha256 {
  constructor(secret?: string | ArrayBuffer | ArrayBufferView);
  update(data: string | ArrayBuffer | ArrayBufferView): void;
  digest(): Promise<Uint8Array>;
  reset(): void;
}

/** An S3-shaped refusal (status, S3 error code, message, extra XML elements). */
export class S3Refusal {
  constructor(status: number, code: string, message: string, extra?: Record<string, string>);
  status: number;
  code: string;
  message: string;
  extra: Record<string, string>;
}

export function verifyRequest(
  req: IncomingMessage,
  opts: { secrets: Map<string, string>; region: string; now?: () => number },
): Promise<{ payloadHash: string; signature: string; scope: string; longDate: string }>;

export function startSigV4Proxy(opts: {
  upstream: string;
  secrets: Map<string, string>;
  region: string;
  port?: number;
  onRefusal?: (refusal: S3Refusal, req: IncomingMessage) => void;
}): Promise<{
  endpoint: string;
  refusals: Array<{ method: string; url: string; status: number; code: string; message: string }>;
  close(): Promise<void>;
}>;
