import http from 'node:http';
import https from 'node:https';
import { assertHostAllowed, makeGuardedLookup } from './ssrf-guard';

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  retryAfterSeconds: number | null;
  error: string | null;
}

/**
 * One POST with the SSRF guard in the connection's DNS lookup, a hard timeout, no redirects
 * followed, and the response body discarded (never stored or shown).
 */
export function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; allowList: ReadonlySet<string> },
): Promise<SendResult> {
  const started = Date.now();
  const done = (r: Partial<SendResult>): SendResult => ({
    statusCode: null,
    retryAfterSeconds: null,
    error: null,
    ...r,
    durationMs: Date.now() - started,
  });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:')
        throw new Error('only http and https URLs are allowed');
      assertHostAllowed(target.hostname, opts.allowList);
    } catch (err) {
      resolve(done({ error: (err as Error).message }));
      return;
    }
    const lib = target.protocol === 'https:' ? https : http;
    const req = lib.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: makeGuardedLookup(opts.allowList),
        agent: false,
        timeout: opts.timeoutMs,
      },
      (res) => {
        res.resume();
        const ra = Number(res.headers['retry-after']);
        resolve(
          done({ statusCode: res.statusCode ?? null, retryAfterSeconds: Number.isFinite(ra) ? ra : null }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`)));
    req.on('error', (err) => resolve(done({ error: err.message.slice(0, 300) })));
    req.end(body);
  });
}
