import http from 'node:http';
import https from 'node:https';
import { assertHostAllowed, ForbiddenAddressError, makeGuardedLookup, type AllowRule } from './ssrf-guard';

/** How much of the receiver's answer the delivery log keeps. */
export const RESPONSE_SNIPPET_BYTES = 1024;

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  /** Seconds the receiver asked us to wait (Retry-After as seconds or an HTTP date), if it said. */
  retryAfterSeconds: number | null;
  /** The first 1 KB of the response body, as text. */
  responseSnippet: string | null;
  error: string | null;
}

/**
 * One POST with the SSRF guard in the connection's DNS lookup, a hard timeout over the whole exchange,
 * no redirects followed, and only the first 1 KB of the response body read.
 */
export function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; allowList: readonly AllowRule[] },
): Promise<SendResult> {
  const started = Date.now();
  const done = (r: Partial<SendResult>): SendResult => ({
    statusCode: null,
    retryAfterSeconds: null,
    responseSnippet: null,
    error: null,
    ...r,
    durationMs: Date.now() - started,
  });
  return new Promise((resolve) => {
    let target: URL;
    let port: number;
    try {
      target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:')
        throw new Error('only http and https URLs are allowed');
      port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
      assertHostAllowed(target.hostname, port, opts.allowList);
    } catch (err) {
      resolve(done({ error: (err as Error).message }));
      return;
    }
    const lib = target.protocol === 'https:' ? https : http;
    let settled = false;
    const finish = (r: Partial<SendResult>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    const req = lib.request(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: makeGuardedLookup(port, opts.allowList),
      agent: false,
    });
    // One deadline for connect, send and the answer's first bytes: a receiver that trickles fails too.
    const timer = setTimeout(
      () => req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    );
    req.on('response', (res) => {
      const statusCode = res.statusCode ?? null;
      const retryAfterSeconds = parseRetryAfter(res.headers['retry-after']);
      const chunks: Buffer[] = [];
      let size = 0;
      const settle = () => {
        const snippet = Buffer.concat(chunks).subarray(0, RESPONSE_SNIPPET_BYTES);
        finish({ statusCode, retryAfterSeconds, responseSnippet: snippetText(snippet) });
        res.destroy();
      };
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        size += c.length;
        if (size >= RESPONSE_SNIPPET_BYTES) settle();
      });
      res.on('end', settle);
      res.on('error', settle);
      res.on('close', settle);
    });
    req.on('error', (err) => finish({ error: deliveryErrorText(err, target.hostname, port) }));
    req.end(body);
  });
}

const IPV4_WITH_PORT = /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g;
const IPV6 = /\[?\b(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}\b\]?(?::\d+)?/gi;

/**
 * A connection error as the tenant's delivery log shows it: the URL's own host and port, never the address
 * the host resolved to (Node's own texts carry it: "connect ECONNREFUSED 10.1.2.3:8080").
 */
export function deliveryErrorText(err: NodeJS.ErrnoException, host: string, port: number): string {
  if (err instanceof ForbiddenAddressError) return err.message;
  const where = `${host} port ${port}`;
  switch (err.code) {
    case 'ECONNREFUSED':
      return `Connection refused by ${where}`;
    case 'ECONNRESET':
      return `Connection reset by ${where}`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${where} could not be reached (${err.code})`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${host} could not be resolved (${err.code})`;
  }
  return err.message.replace(IPV4_WITH_PORT, host).replace(IPV6, host).slice(0, 300);
}

/** Retry-After as delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - now) / 1000)) : null;
}

/** Text Postgres can store: invalid UTF-8 becomes U+FFFD (a cut character too), NUL is dropped. */
function snippetText(bytes: Buffer): string | null {
  if (bytes.length === 0) return null;
  return bytes.toString('utf8').replaceAll(String.fromCharCode(0), '');
}
