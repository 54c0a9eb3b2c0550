import type { IncomingMessage } from 'node:http';
import { AppError } from './app-error';

// Bounds how deep a JSON body may nest, checked on the raw bytes before JSON.parse runs (issue 28): an 18 KB
// body nested 3,000 levels used to reach the validation code, overflow its recursion and answer 500 with a
// logged stack. No request the api takes nests anywhere near 64 levels.

export const MAX_JSON_DEPTH = 64;
export const JSON_TOO_DEEP_MESSAGE = `The request body is nested more than ${MAX_JSON_DEPTH} levels deep. Send a flatter JSON document.`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * True when the JSON text nests objects/arrays deeper than `limit`. Brackets inside strings do not count.
 * UTF-8 bytes are scanned as they are (no multi-byte sequence contains an ASCII byte); other encodings are
 * decoded first. Malformed JSON is left for the parser to refuse.
 */
export function jsonDepthExceeds(body: Buffer | string, limit = MAX_JSON_DEPTH): boolean {
  const at = typeof body === 'string' ? (i: number) => body.charCodeAt(i) : (i: number) => body[i] as number;
  let depth = 0;
  let inString = false;
  for (let i = 0, n = body.length; i < n; i++) {
    const c = at(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/** The JSON body parser's `verify` hook: keeps the raw bytes (webhook signatures) and refuses deep JSON. */
export function verifyJsonBody(
  req: IncomingMessage & { rawBody?: Buffer },
  _res: unknown,
  buf: Buffer,
  encoding: string,
): void {
  req.rawBody = buf;
  const utf8 = /^utf-?8$/i.test(encoding);
  let text: Buffer | string = buf;
  if (!utf8) {
    try {
      text = new TextDecoder(encoding).decode(buf);
    } catch {
      return; // an encoding body-parser refuses itself (415)
    }
  }
  // body-parser passes the error on with its own status (400), so it answers like any AppError.
  if (jsonDepthExceeds(text)) throw new AppError(400, 'JSON_TOO_DEEP', JSON_TOO_DEEP_MESSAGE);
}
