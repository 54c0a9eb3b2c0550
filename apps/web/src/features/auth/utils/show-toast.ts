import type { ShowToastOptions } from '../../../components/toaster';

/**
 * components/toaster's showToast, loaded when a form first shows a toast: the toast machine (~18 KB
 * gzipped) then stays off the sign-in page's first screen (the dashboard still loads it with
 * features/billing's UpgradeCard). RootLayout mounts the toast area, which shows every toast raised before
 * it was there.
 */
export function showToast(options: ShowToastOptions): void {
  void import('../../../components/toaster').then((m) => m.showToast(options));
}
