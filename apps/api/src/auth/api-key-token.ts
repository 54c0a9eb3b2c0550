import { createHash, randomBytes } from 'node:crypto';

// API key format: `csvm_` + 32 random bytes in base64url (256 bits). Only the SHA-256 is stored; a fast
// hash is right here because the key has full entropy (unlike a password).

export const API_KEY_PREFIX = 'csvm_';
const KEY_RE = /^csvm_[A-Za-z0-9_-]{43}$/;
/** How much of the key is kept in clear to tell keys apart in lists. */
const DISPLAY_PREFIX_LENGTH = 12;

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_RE.test(value);
}

/** True when any query parameter carries something that looks like an API key (refused outright). */
export function queryCarriesApiKey(url: string): boolean {
  const q = url.indexOf('?');
  return q >= 0 && /csvm_/i.test(decodeURIComponentSafe(url.slice(q + 1)));
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}
