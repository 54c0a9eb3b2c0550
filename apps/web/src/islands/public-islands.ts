// The only JavaScript a prerendered public page loads (scripts/prerender-web.js adds it to pages that need
// it): the FAQ accordion of features/public/faq-accordion.tsx, made interactive on the static markup
// instead of hydrating React, Chakra and emotion for it. Same behaviour as the React component: one answer
// open at a time, clicking the open question closes it, arrow keys / Home / End move between questions.
// The documentation's live API reference is the one React part: its code loads only when that section
// comes near the viewport.

function setOpen(button: HTMLButtonElement, open: boolean): void {
  button.setAttribute('aria-expanded', String(open));
  const panel = document.getElementById(button.getAttribute('aria-controls') ?? '');
  if (panel) panel.hidden = !open;
  const chevron = button.querySelector('svg');
  if (chevron) chevron.style.transform = open ? 'rotate(180deg)' : '';
}

function accordion(root: HTMLElement): void {
  const buttons = [...root.querySelectorAll<HTMLButtonElement>('button[aria-controls]')];
  buttons.forEach((button, i) => {
    button.addEventListener('click', () => {
      const open = button.getAttribute('aria-expanded') === 'true';
      for (const other of buttons) setOpen(other, other === button && !open);
    });
    button.addEventListener('keydown', (e) => {
      const n = buttons.length;
      const target =
        e.key === 'ArrowDown'
          ? (i + 1) % n
          : e.key === 'ArrowUp'
            ? (i - 1 + n) % n
            : e.key === 'Home'
              ? 0
              : e.key === 'End'
                ? n - 1
                : -1;
      if (target < 0) return;
      e.preventDefault();
      buttons[target]?.focus();
    });
  });
  // Tells tests (and styles, if ever needed) that the questions now respond.
  root.dataset.faqReady = '';
}

document.querySelectorAll<HTMLElement>('[data-faq]').forEach(accordion);

const endpointTable = document.querySelector<HTMLElement>('[data-island="endpoint-table"]');
if (endpointTable) {
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      void import('./endpoint-table-island').then((m) => m.mountEndpointTable(endpointTable));
    },
    { rootMargin: '200px 0px' },
  );
  observer.observe(endpointTable);
}
