import { AppError } from './app-error';
import { pageOffset } from './cursor';

describe('pageOffset', () => {
  it('reads a left-out cursor as the first page and a nextCursor as its offset', () => {
    expect(pageOffset(undefined)).toBe(0);
    expect(pageOffset('0')).toBe(0);
    expect(pageOffset('120')).toBe(120);
  });

  it('answers 400 BAD_REQUEST for a cursor that is no whole number from 0', () => {
    for (const bad of ['abc', '-1', '']) {
      const err = thrownBy(() => pageOffset(bad));
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).getStatus()).toBe(400);
      expect((err as AppError).getResponse()).toEqual({
        error: 'cursor is not valid: pass the nextCursor of the previous page.',
        code: 'BAD_REQUEST',
      });
    }
  });
});

function thrownBy(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}
