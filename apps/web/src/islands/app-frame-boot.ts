// A classic script in <head> of the sign-in page and of the app shells that carry a first-screen frame
// (scripts/prerender-web.js), run before the page is parsed, so the first paint already shows the right
// variant: the Sign Up tab when the link asked for it (?tab=signup), and on the dashboard the greeting's
// first name and the upgrade card of the plan the dashboard last showed (src/lib/app-frame.tsx saves that
// hint under this key).
// On the sign-in page (static, scripts/prerender-web.js signInPage) it also loads the page's island after
// the first paint, named on this script's data-island (its chunks on data-preload), so that code does not
// stand before the paint. No imports: it is loaded as a plain script, not a module.
const HINT_KEY = 'csv-mapper:first-screen';

(() => {
  const boot = document.currentScript;
  const island = boot?.dataset.island;
  if (!boot || !island) return;
  const load = () => {
    for (const href of (boot.dataset.preload ?? '').split(' ').filter(Boolean)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = island;
    document.head.append(script);
  };
  // requestAnimationFrame runs just before the first paint, the timeout just after it.
  requestAnimationFrame(() => setTimeout(load, 0));
})();

(() => {
  const html = document.documentElement;
  if (new URLSearchParams(location.search).get('tab') === 'signup') html.dataset.frameTab = 'signup';
  // A tab clicked before the sign-in page's island has loaded still shows its form (the island, once it
  // marks the page data-auth-ready, handles the tabs itself): the click would otherwise be lost.
  document.addEventListener('click', (e) => {
    if ('authReady' in html.dataset || !(e.target instanceof Element)) return;
    const tab = e.target.closest<HTMLElement>('[data-frame-tab-variant] [role="tab"]');
    if (!tab) return;
    if (tab.dataset.value === 'signup') html.dataset.frameTab = 'signup';
    else delete html.dataset.frameTab;
  });
  let hint: unknown;
  try {
    hint = JSON.parse(localStorage.getItem(HINT_KEY) ?? 'null');
  } catch {
    return;
  }
  if (!hint || typeof hint !== 'object') return;
  const { name, plan } = hint as { name?: unknown; plan?: unknown };
  if (typeof plan === 'string' || plan === null) html.dataset.framePlan = plan ?? 'none';
  if (typeof name !== 'string' || !name) return;
  // The greeting is parsed after this runs: named as soon as it is complete (its next sibling parsed),
  // before the first paint (mutation callbacks run before the browser renders).
  const observer = new MutationObserver(() => {
    const greeting = document.querySelector<HTMLElement>('[data-frame-greeting]');
    if (!greeting?.nextElementSibling) return;
    greeting.textContent = `Welcome, ${name}!`;
    observer.disconnect();
  });
  observer.observe(html, { childList: true, subtree: true });
  document.addEventListener('DOMContentLoaded', () => observer.disconnect(), { once: true });
})();
