import { describe, expect, it } from '@jest/globals';
import { nextPath } from './next-path';

describe('nextPath (where signing in goes next)', () => {
  it('keeps a path of this site, with its own query', () => {
    const next = encodeURIComponent('/team/join?token=abc_12-3');
    expect(nextPath(`?tab=signup&next=${next}`)).toBe('/team/join?token=abc_12-3');
  });

  it.each(['https://evil.example/x', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', ''])(
    'refuses %j (another site or no path): the dashboard is used instead',
    (next) => {
      expect(nextPath(`?next=${encodeURIComponent(next)}`)).toBeNull();
    },
  );

  it('is null without a next parameter', () => {
    expect(nextPath('?tab=signup')).toBeNull();
  });
});
