import type { ShowToastOptions } from '../../../components/toaster';

// The welcome toast across the full page load that follows signing in on the static sign-in page
// (src/islands/auth-island.ts): stashed there for this tab, shown by the app when it starts (app/start.tsx).
const KEY = 'csv-mapper:toast-after-sign-in';

export function stashToast(options: ShowToastOptions): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(options));
  } catch {
    // Storage refused (private mode, quota): the next page shows no welcome.
  }
}

/** The stashed toast, once: later calls (a reload) answer null. */
export function takeStashedToast(): ShowToastOptions | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (raw === null) return null;
    sessionStorage.removeItem(KEY);
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object') return null;
    const { title, description, type } = value as Record<string, unknown>;
    if (typeof title !== 'string') return null;
    return {
      title,
      description: typeof description === 'string' ? description : undefined,
      type:
        type === 'success' || type === 'error' || type === 'info' || type === 'warning' ? type : undefined,
    };
  } catch {
    return null;
  }
}
