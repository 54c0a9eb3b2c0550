// The first screen of an app shell (scripts/prerender-web.js): /dashboard is served with its
// page's frame already in the HTML (its CSS in <head>), so the first paint shows the page while the app's
// code loads. The frame is inert markup: the app starts after that paint (main.tsx), renders off the
// document (adoptFrame) and takes the frame's place in one step once its page is ready to show
// (useFrameHandover), so there is never a second copy of the page in the document and nothing moves.
import { createContext, useContext, useLayoutEffect } from 'react';
import { FRAME_HINT_KEY, FRAME_ID } from './frame-ids';

/**
 * The browser-side hint the dashboard's frame is drawn with: the greeting's first name and the plan whose
 * upgrade card shows (null: none). Saved by the dashboard once its answers are in, forgotten at log out,
 * read before the first paint by src/islands/app-frame-boot.ts (which spells the same key).
 */
export interface FrameHint {
  name: string;
  plan: string | null;
}

export function saveFrameHint(hint: FrameHint): void {
  try {
    localStorage.setItem(FRAME_HINT_KEY, JSON.stringify(hint));
  } catch {
    // Storage refused (private mode, quota): the next frame is drawn without the hint.
  }
}

/** True while the build renders a frame: pages draw what they can without data, nothing interactive. */
export const FrameContext = createContext(false);
export function useIsFrame(): boolean {
  return useContext(FrameContext);
}

let pending: { frame: HTMLElement; root: HTMLElement; route: string } | null = null;

/**
 * app/start.tsx: when the page came with a frame, takes #root off the document for the app to render into,
 * and returns it. Without a frame, #root as it is.
 */
export function adoptFrame(): HTMLElement {
  const root = document.getElementById('root');
  if (!root) throw new Error('The #root element is missing from index.html');
  const frame = document.getElementById(FRAME_ID);
  if (frame) {
    root.remove();
    pending = { frame, root, route: frame.dataset.route ?? '' };
  }
  return root;
}

/** Puts the app's root where the frame was (once; later calls do nothing). */
export function showApp(): void {
  if (!pending) return;
  const { frame, root } = pending;
  pending = null;
  frame.replaceWith(root);
}

/** The path the frame on screen was drawn for, or null once the app shows. */
export function frameRoute(): string | null {
  return pending?.route ?? null;
}

/** A page with a frame: shows the app in the frame's place (before the browser paints) once `ready`. */
export function useFrameHandover(ready: boolean): void {
  useLayoutEffect(() => {
    if (ready) showApp();
  }, [ready]);
}
