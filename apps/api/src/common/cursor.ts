import { AppError } from './app-error';

/**
 * The offset a page's `cursor` query names (0 when left out): the `nextCursor` a previous page answered.
 * Anything but a whole number ≥ 0 answers 400 BAD_REQUEST.
 */
export function pageOffset(cursor: string | undefined): number {
  const offset = cursor === undefined ? 0 : Number.parseInt(cursor, 10);
  if (!Number.isInteger(offset) || offset < 0) {
    throw new AppError(400, 'BAD_REQUEST', 'cursor is not valid: pass the nextCursor of the previous page.');
  }
  return offset;
}
