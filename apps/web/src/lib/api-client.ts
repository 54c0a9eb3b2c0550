// The one way the web app talks to the api: same-origin fetch with the session cookie, JSON bodies and the
// X-Requested-With header (the api's CSRF guard expects it). Any non-2xx becomes an ApiError whose message is
// "<status>: <body text or status text>", as spec §8 says; callers decide by its `code`, never by the text.
import type { ErrorBody, ErrorCode } from '@csv-mapper/contracts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const REQUESTED_WITH = 'csv-mapper';

/** The `{ error, code, details }` body, or undefined when the text is not that JSON (proxy pages, HTML). */
function parseErrorBody(text: string): ErrorBody | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object') {
      const { error, code } = body as Partial<ErrorBody>;
      if (typeof code === 'string' || typeof error === 'string') return body as ErrorBody;
    }
  } catch {
    // Not JSON: not an answer from the api's exception filter.
  }
  return undefined;
}

/** A non-2xx answer: the HTTP status, the body's code and message, and the spec §8 text as `message`. */
export class ApiError extends Error {
  readonly status: number;
  /** One of ERROR_CODES when the api answered; undefined for a body that was not its JSON. */
  readonly code: string | undefined;
  readonly body: ErrorBody | undefined;

  constructor(status: number, bodyText: string, statusText = '') {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = parseErrorBody(bodyText);
    this.code = this.body?.code;
  }

  /** Reads the body of a failed response (a body that cannot be read leaves the status text). */
  static async from(res: Response): Promise<ApiError> {
    let text = '';
    try {
      text = await res.text();
    } catch {
      // The status text explains the failure.
    }
    return new ApiError(res.status, text, res.statusText);
  }
}

/** True when `err` is an api answer with this code. */
export function hasErrorCode(err: unknown, code: ErrorCode): boolean {
  return err instanceof ApiError && err.code === code;
}

async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) throw await ApiError.from(res);
}

/** Sends one request; resolves with the Response when it is 2xx, throws an ApiError otherwise. */
export async function apiRequest(method: HttpMethod, url: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { 'X-Requested-With': REQUESTED_WITH, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

/** apiRequest plus JSON decoding; a 204 or an empty body resolves to undefined. */
export async function apiJson<T>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
  const res = await apiRequest(method, url, body);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Multipart POST (uploads): the browser sets the boundary, so no Content-Type here. */
export async function apiForm<T>(url: string, form: FormData): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    body: form,
    credentials: 'include',
    headers: { 'X-Requested-With': REQUESTED_WITH, Accept: 'application/json' },
  });
  await throwIfResNotOk(res);
  return (await res.json()) as T;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * The default SWR fetcher (spec §7): GET of the key's parts joined by '/', reading JSON. With
 * on401 'returnNull' a 401 resolves to null (used for "who is signed in?"); with 'throw' it is an error.
 */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }) {
  return async (key: string | readonly string[]): Promise<T | null> => {
    const url = typeof key === 'string' ? key : key.join('/');
    // No X-Requested-With: the api's CSRF guard asks it of writes only, and a request with a header the
    // page's <link rel="preload" as="fetch"> lacks cannot take that preload's answer (scripts/prerender-web.js).
    const res = await fetch(url, { credentials: 'include', headers: { Accept: 'application/json' } });
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/**
 * Spec §8 "unauthorised" (the session ended): a 401 whose code is UNAUTHORIZED, or a 401 without the api's
 * body (a proxy in front of it). A 401 with another code, e.g. INVALID_CREDENTIALS, is an answer to show.
 */
export function isUnauthorizedError(err: unknown): boolean {
  return (
    err instanceof ApiError && err.status === 401 && (err.code === undefined || err.code === 'UNAUTHORIZED')
  );
}

/** The HTTP status of an api error, or undefined for network and other failures. */
export function getErrorStatus(err: unknown): number | undefined {
  return err instanceof ApiError ? err.status : undefined;
}

/**
 * The human message the api put in its `{ error, code }` body, for toasts. Undefined when the body was not
 * that JSON (proxy pages, network failures), so the caller falls back to its own wording.
 */
export function getErrorMessage(err: unknown): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const message = err.body?.error;
  return typeof message === 'string' && message.trim() ? message : undefined;
}

const UNREACHABLE = 'The server could not be reached. Please try again in a moment.';

/**
 * The description for an error toast: the api's own message when it sent one; a "could not reach the
 * server" line for network failures and 5xx answers without one (blaming the user's input would mislead);
 * otherwise the caller's fallback wording from spec §8.
 */
export function errorDescription(err: unknown, fallback: string): string {
  const message = getErrorMessage(err);
  if (message) return message;
  const status = getErrorStatus(err);
  if (status === undefined || status >= 500) return UNREACHABLE;
  return fallback;
}
