import type { NextFunction, Request, Response } from 'express';
import { AppError } from './app-error';

// Refuses the NUL character (U+0000) at the HTTP edge, for every route at once: Postgres text cannot hold
// it, so a NUL in any string that reaches the database used to fail there as a 500. Runs after the body
// parsers, before any route; multipart fields and file names are checked where multer reads them.

export const INVALID_CHARACTERS_MESSAGE =
  'Text fields cannot contain the NUL character (\\u0000). Remove it and send the request again.';

/** Deeper JSON than this is refused by the routes anyway; the walk stays bounded. */
const MAX_DEPTH = 64;

export function invalidCharactersError(): AppError {
  return new AppError(400, 'INVALID_CHARACTERS', INVALID_CHARACTERS_MESSAGE);
}

/** True when a string anywhere in `value` (object keys included) holds U+0000. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000') || containsNul(v, depth + 1)) return true;
  }
  return false;
}

export function rejectNulCharacters(req: Request, _res: Response, next: NextFunction): void {
  // %00 anywhere in the path or query decodes to NUL in a route parameter or query value.
  const nul =
    /%00/.test(req.originalUrl) ||
    Object.values(req.headers).some((v) => containsNul(v)) ||
    containsNul(req.body);
  next(nul ? invalidCharactersError() : undefined);
}
