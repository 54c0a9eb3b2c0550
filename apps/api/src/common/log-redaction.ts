import type { IncomingHttpHeaders } from 'node:http';

// What the log must never hold (SECURITY-CHECKLIST, issue 18): credentials in headers, API keys (csvm_…)
// and webhook secrets (whsec_…) wherever they appear and however they are percent-encoded, and the
// one-time tokens of reset and invitation links. These are the pino options that keep them out.

export const REDACTED = '[REDACTED]';

/** Headers whose value is a credential, whatever it looks like. */
const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
]);
/** Header names that announce a secret (x-webhook-secret, stripe-signature, x-auth-token …). */
const SECRET_HEADER_NAME = /secret|token|signature|api-?key|password/i;
/** Query parameter names whose value is a secret (reset/invite `token`, `api_key`, `key`, `secret` …). */
const SECRET_PARAM_NAME =
  /^(?:[\w.-]*(?:token|secret|password|passwd|signature)|api[_-]?key|apikey|key|sig)$/i;
/** An API key or a webhook secret, once decoded. */
const SECRET_MARKER = /(?:csvm|whsec)_/i;
/** The same in free text: the underscore may be percent-encoded once or twice. */
const SECRET_IN_TEXT = /\b(csvm|whsec)(?:_|%5f|%255f)[^\s"'&?#/\\]*/gi;

/** Percent-decodes until stable (at most three rounds), leaving malformed escapes as they are. */
function decoded(s: string): string {
  let out = s;
  for (let i = 0; i < 3; i++) {
    const next = out.replace(/(%[0-9A-Fa-f]{2})+/g, (m) => {
      try {
        return decodeURIComponent(m);
      } catch {
        return m;
      }
    });
    if (next === out) break;
    out = next;
  }
  return out.replace(/\+/g, ' ');
}

function carriesSecret(s: string): boolean {
  return SECRET_MARKER.test(decoded(s));
}

/** A URL (path + query, or absolute) with secret path segments and secret query values replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const safePath = path
    .split('/')
    .map((seg) => (carriesSecret(seg) ? REDACTED : seg))
    .join('/');
  if (q < 0) return safePath;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      if (carriesSecret(name)) return REDACTED;
      if (eq < 0) return pair;
      const value = pair.slice(eq + 1);
      return SECRET_PARAM_NAME.test(decoded(name)) || carriesSecret(value) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${safePath}?${query}`;
}

/**
 * Free text (a log message, an error): key-shaped tokens replaced. Query-style `token=` values are left to
 * the URL fields: the development mail fallback (MailService without SMTP_URL) logs reset links on purpose.
 */
export function redactText(s: string): string {
  return s.replace(SECRET_IN_TEXT, `$1_${REDACTED}`);
}

/**
 * A parsed query or route params object: secret-named entries and secret-looking values replaced, and a
 * key sent as a parameter's name (`?csvm_…`, issue 28) replaced, name and value.
 */
export function redactParams(value: unknown, name = ''): unknown {
  if (name && (SECRET_PARAM_NAME.test(name) || carriesSecret(name))) return REDACTED;
  if (typeof value === 'string') return carriesSecret(value) ? REDACTED : value;
  if (Array.isArray(value)) return value.map((v) => redactParams(v));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [carriesSecret(k) ? REDACTED : k, redactParams(v, k)]),
    );
  }
  return value;
}

/** A copy of the headers (the serializer gets the live request's object) with every secret replaced. */
export function redactHeaders(
  headers: IncomingHttpHeaders | Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (carriesSecret(lower)) out[REDACTED] = REDACTED;
    else if (CREDENTIAL_HEADERS.has(lower) || SECRET_HEADER_NAME.test(lower)) out[name] = REDACTED;
    else if (lower === 'referer' || lower === 'location') out[name] = redactUrl(String(value));
    else if (typeof value === 'string') out[name] = carriesSecret(value) ? REDACTED : value;
    else out[name] = value;
  }
  return out;
}

interface SerializedReq {
  url?: string;
  query?: unknown;
  params?: unknown;
  headers?: Record<string, unknown>;
}
interface SerializedRes {
  headers?: Record<string, unknown>;
}
interface SerializedErr {
  message?: string;
  stack?: string;
}

/** Options spread into pino-http (and pino): request/response/error serializers and a message hook. */
export const logRedaction = {
  serializers: {
    req: (req: SerializedReq) => {
      if (req.url) req.url = redactUrl(req.url);
      if (req.query) req.query = redactParams(req.query);
      if (req.params) req.params = redactParams(req.params);
      if (req.headers) req.headers = redactHeaders(req.headers);
      return req;
    },
    res: (res: SerializedRes) => {
      if (res.headers) res.headers = redactHeaders(res.headers);
      return res;
    },
    err: (err: SerializedErr) => {
      if (err.message) err.message = redactText(err.message);
      if (err.stack) err.stack = redactText(err.stack);
      return err;
    },
  },
  formatters: {
    // Top-level strings a caller adds (the error filter's `path`, say): URLs as URLs, the rest as text.
    log: (obj: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(obj).map(([k, v]) => [
          k,
          typeof v !== 'string' ? v : k === 'path' || k === 'url' ? redactUrl(v) : redactText(v),
        ]),
      ),
  },
  hooks: {
    logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void) {
      method.apply(
        this,
        args.map((a) => (typeof a === 'string' ? redactText(a) : a)),
      );
    },
  },
};
