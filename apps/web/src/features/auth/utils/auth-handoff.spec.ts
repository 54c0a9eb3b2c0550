import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { stashToast, takeStashedToast } from './auth-handoff';

// The welcome toast crosses the full page load from the static sign-in page to the app in sessionStorage.

class MemoryStorage {
  private items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

const globals = globalThis as { sessionStorage?: unknown };

describe('the welcome toast handed from the sign-in page to the app', () => {
  beforeEach(() => {
    globals.sessionStorage = new MemoryStorage();
  });
  afterEach(() => {
    delete globals.sessionStorage;
  });

  it('is shown once: the app takes it, a reload finds nothing', () => {
    stashToast({ title: 'Welcome!', description: 'Your account ada is ready.', type: 'success' });
    expect(takeStashedToast()).toEqual({
      title: 'Welcome!',
      description: 'Your account ada is ready.',
      type: 'success',
    });
    expect(takeStashedToast()).toBeNull();
  });

  it('ignores a stored value that is not a toast', () => {
    (globals.sessionStorage as MemoryStorage).setItem('csv-mapper:toast-after-sign-in', '{"title": 3}');
    expect(takeStashedToast()).toBeNull();
    (globals.sessionStorage as MemoryStorage).setItem('csv-mapper:toast-after-sign-in', 'not json');
    expect(takeStashedToast()).toBeNull();
  });

  it('does nothing when the browser refuses storage', () => {
    delete globals.sessionStorage;
    expect(() => stashToast({ title: 'Welcome back!' })).not.toThrow();
    expect(takeStashedToast()).toBeNull();
  });
});
