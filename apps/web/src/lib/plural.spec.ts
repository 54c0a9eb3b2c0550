import { describe, expect, it } from '@jest/globals';
import { plural } from './plural';

describe('plural', () => {
  it('uses the singular for one and the plural otherwise, with grouped digits', () => {
    expect(plural(1, 'column')).toBe('1 column');
    expect(plural(0, 'row')).toBe('0 rows');
    expect(plural(12345, 'row')).toBe('12,345 rows');
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
  });
});
