// The one way the web app talks to the api: same-origin fetch with the session cookie, JSON bodies and the
// X-Requested-With header (the api's CSRF guard expects it). Any non-2xx becomes
// Error("<status>: <body text or status text>"), as spec §8 says, so callers can recognise 401s by text.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const REQUESTED_WITH = 'csv-mapper';

async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  let text = '';
  try {
    text = await res.text();
  } catch {
    // A body that cannot be read leaves the status text to explain the failure.
  }
  throw new Error(`${res.status}: ${text || res.statusText}`);
}

/** Sends one request; resolves with the Response when it is 2xx, throws the spec §8 error otherwise. */
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

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * The default SWR fetcher (spec §7): GET of the key's parts joined by '/', reading JSON. With
 * on401 'returnNull' a 401 resolves to null (used for "who is signed in?"); with 'throw' it is an error.
 */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }) {
  return async (key: string | readonly string[]): Promise<T | null> => {
    const url = typeof key === 'string' ? key : key.join('/');
    const res = await fetch(url, {
      credentials: 'include',
      headers: { 'X-Requested-With': REQUESTED_WITH, Accept: 'application/json' },
    });
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** Spec §8: an error whose text starts with '401: ' and contains 'Unauthorized'. */
export function isUnauthorizedError(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith('401: ') && err.message.includes('Unauthorized');
}

/** The HTTP status of an api error, or undefined for network and other failures. */
export function getErrorStatus(err: unknown): number | undefined {
  if (!(err instanceof Error)) return undefined;
  const match = /^(\d{3}): /.exec(err.message);
  return match ? Number(match[1]) : undefined;
}

/**
 * The human message the api put in its `{ error, code }` body, for toasts. Undefined when the body was not
 * that JSON (proxy pages, network failures), so the caller falls back to its own wording.
 */
export function getErrorMessage(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const match = /^\d{3}: ([\s\S]*)$/.exec(err.message);
  if (!match) return undefined;
  try {
    const body: unknown = JSON.parse(match[1]);
    if (body && typeof body === 'object' && 'error' in body) {
      const message = (body as { error: unknown }).error;
      if (typeof message === 'string' && message.trim()) return message;
    }
  } catch {
    // Not JSON: not a message written for people.
  }
  return undefined;
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
