// The sign-in page before sign-in (/auth, prerendered by scripts/prerender-web.js from
// pages/auth/auth-static-page.tsx): the log-in and sign-up forms made interactive on the static markup, so
// the page never downloads React, Chakra or emotion. It does what features/auth's LoginForm and
// RegisterForm do in the app — the same checks and messages (features/auth/utils/auth-checks.ts), the same
// api calls — and, once signed in, goes to the next page with a full page load, where the app starts and
// shows the welcome toast (auth-handoff.ts).
// Markup for the states the page does not start in (the rules list, an error text, a busy button, the
// other eye icon) is rendered at build time into <template id="auth-kit">, so every state looks as the
// React form draws it. Toasts are the app's own (components/toaster), loaded on the first one.
import { AuthMessages, isValidEmail } from '@csv-mapper/domain';
import type { SessionUserView } from '@csv-mapper/contracts';
import { apiJson } from '../lib/api-client';
import { forgetFrameHint } from '../lib/frame-ids';
import { nextPath } from '../features/auth/utils/next-path';
import { stashToast } from '../features/auth/utils/auth-handoff';
import {
  loginFailed,
  loginProblem,
  loginWelcome,
  signupFailed,
  signupProblem,
  signupWelcome,
} from '../features/auth/utils/auth-checks';
import type { ShowToastOptions } from '../components/toaster';
import { AUTH_KIT_ID, renderRules, type Kit } from './auth-island-kit';

type Tab = 'login' | 'signup';

const html = document.documentElement;
const kitTemplate = document.getElementById(AUTH_KIT_ID);
const kit: Kit | null = kitTemplate instanceof HTMLTemplateElement ? { root: kitTemplate.content } : null;

function toast(options: ShowToastOptions): void {
  void import('./auth-toast').then((m) => m.showAuthToast(options));
}

/** Where signing in leads: `?next=` when it names a path of this site, else the dashboard. */
function destination(): string {
  return nextPath(location.search) ?? '/dashboard';
}

/** Signed in: the dashboard frame's hint was whoever signed in here before; then a full page load. */
function signedIn(welcome: ShowToastOptions): void {
  forgetFrameHint();
  stashToast(welcome);
  location.replace(destination());
}

function cloneKit(name: string): HTMLElement | null {
  const el = kit?.root.querySelector<HTMLElement>(`[data-kit="${name}"]`)?.firstElementChild;
  return el ? (el.cloneNode(true) as HTMLElement) : null;
}

/** The show/hide toggle of a password field: the input's type, the button's name and its eye icon. */
function bindPasswordToggle(form: HTMLFormElement): void {
  const button = form.querySelector<HTMLButtonElement>('button[aria-pressed]');
  const input = form.querySelector<HTMLInputElement>('input[name="password"]');
  if (!button || !input) return;
  button.addEventListener('click', () => {
    const visible = button.getAttribute('aria-pressed') !== 'true';
    input.type = visible ? 'text' : 'password';
    button.setAttribute('aria-label', visible ? 'Hide password' : 'Show password');
    button.setAttribute('aria-pressed', String(visible));
    const icon = cloneKit(visible ? 'eye-off' : 'eye');
    const current = button.querySelector('svg');
    if (icon && current) current.replaceWith(icon);
  });
}

/**
 * Field.Root's invalid state (ark's useField): data-invalid on the field, its label and input, the input's
 * aria-invalid and aria-errormessage naming the error text, which sits last in the field.
 */
function setFieldError(input: HTMLInputElement, message: string | null): void {
  const root = input.closest<HTMLElement>('[data-scope="field"][data-part="root"]');
  if (!root) return;
  const parts = [
    root,
    input,
    ...root.querySelectorAll<HTMLElement>('[data-scope="field"][data-part="label"]'),
  ];
  const errorId = `field::${input.id}::error-text`;
  const existing = document.getElementById(errorId);
  if (message === null) {
    for (const p of parts) p.removeAttribute('data-invalid');
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-errormessage');
    existing?.remove();
    return;
  }
  for (const p of parts) p.setAttribute('data-invalid', '');
  input.setAttribute('aria-invalid', 'true');
  if (existing) {
    existing.textContent = message;
    return;
  }
  const error = cloneKit('error-text')?.querySelector<HTMLElement>('[data-part="error-text"]');
  if (!error) return;
  error.id = errorId;
  error.textContent = message;
  root.append(error);
  input.setAttribute('aria-errormessage', errorId);
}

/** The submit button's busy state (Chakra's `loading`: a spinner and the loading text, disabled). */
function busy(button: HTMLButtonElement, kitName: string): () => void {
  const original = button.cloneNode(true) as HTMLButtonElement;
  const loading = cloneKit(kitName);
  if (loading) {
    for (const { name } of [...button.attributes]) button.removeAttribute(name);
    for (const { name, value } of [...loading.attributes]) button.setAttribute(name, value);
    button.replaceChildren(...loading.childNodes);
  } else {
    button.disabled = true;
  }
  return () => {
    for (const { name } of [...button.attributes]) button.removeAttribute(name);
    for (const { name, value } of [...original.attributes]) button.setAttribute(name, value);
    button.replaceChildren(...original.childNodes);
  };
}

function field(form: HTMLFormElement, name: string): HTMLInputElement {
  const input = form.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  if (!input) throw new Error(`the ${form.getAttribute('aria-label')} form has no ${name} field`);
  return input;
}

function bindLogin(form: HTMLFormElement): void {
  const identifier = field(form, 'identifier');
  const password = field(form, 'password');
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  const rulesId = 'login-password-rules';
  bindPasswordToggle(form);
  identifier.addEventListener('input', () => setFieldError(identifier, null));
  password.addEventListener('input', () => {
    const value = password.value;
    const current = document.getElementById(rulesId);
    if (!value) {
      current?.remove();
      password.removeAttribute('aria-describedby');
      return;
    }
    password.setAttribute('aria-describedby', rulesId);
    const rules = renderRules(kit, current, value, { checkCommon: false, id: rulesId });
    if (rules && !rules.isConnected) submit?.before(rules);
  });
  let sending = false;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (sending) return;
    const id = identifier.value.trim();
    const problem = loginProblem(id, password.value);
    if (problem) {
      if ('toast' in problem) toast(problem.toast);
      else setFieldError(identifier, problem.message);
      return;
    }
    sending = true;
    const done = submit ? busy(submit, 'login-busy') : () => undefined;
    apiJson<SessionUserView>('POST', '/api/login', { identifier: id, password: password.value }).then(
      (user) => signedIn(loginWelcome(user)),
      (err: unknown) => {
        sending = false;
        done();
        toast(loginFailed(err));
      },
    );
  });
}

function bindSignup(form: HTMLFormElement): void {
  const username = field(form, 'username');
  const email = field(form, 'email');
  const firstName = field(form, 'firstName');
  const lastName = field(form, 'lastName');
  const password = field(form, 'password');
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  const rulesId = 'register-password-rules';
  bindPasswordToggle(form);
  email.addEventListener('input', () => setFieldError(email, null));
  email.addEventListener('blur', () => {
    const v = email.value.trim();
    if (v && !isValidEmail(v)) setFieldError(email, AuthMessages.invalidEmail);
  });
  password.addEventListener('input', () =>
    renderRules(kit, document.getElementById(rulesId), password.value, { checkCommon: true, id: rulesId }),
  );
  let sending = false;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (sending) return;
    const user = username.value.trim();
    const mail = email.value.trim();
    const problem = signupProblem(user, mail, password.value);
    if (problem) {
      if ('toast' in problem) toast(problem.toast);
      else setFieldError(email, problem.message);
      return;
    }
    sending = true;
    const done = submit ? busy(submit, 'signup-busy') : () => undefined;
    apiJson<SessionUserView>('POST', '/api/register', {
      username: user,
      email: mail,
      firstName: firstName.value.trim(),
      lastName: lastName.value.trim(),
      password: password.value,
    }).then(
      (created) => signedIn(signupWelcome(created)),
      (err: unknown) => {
        sending = false;
        done();
        toast(signupFailed(err));
      },
    );
  });
}

/** Each tab's view as the page was served, to start it afresh (the app unmounts a tab it leaves). */
const pristine = new Map<Tab, HTMLFormElement>();

function formOf(tab: Tab): HTMLFormElement | null {
  return document.querySelector<HTMLFormElement>(
    `[data-frame-tab-variant="${tab}"] form[aria-label="${tab === 'login' ? 'Login' : 'Sign Up'}"]`,
  );
}

function bind(tab: Tab, form: HTMLFormElement): void {
  if (tab === 'login') bindLogin(form);
  else bindSignup(form);
}

function currentTab(): Tab {
  return html.dataset.frameTab === 'signup' ? 'signup' : 'login';
}

/** Shows a tab's view (the attribute on <html> the page's CSS reads) and focuses its tab. */
function select(tab: Tab, focus: boolean): void {
  const leaving = currentTab();
  if (tab === leaving) return;
  if (tab === 'signup') html.dataset.frameTab = 'signup';
  else delete html.dataset.frameTab;
  const old = formOf(leaving);
  const fresh = pristine.get(leaving)?.cloneNode(true) as HTMLFormElement | undefined;
  if (old && fresh) {
    old.replaceWith(fresh);
    bind(leaving, fresh);
  }
  if (focus)
    document
      .querySelector<HTMLElement>(`[data-frame-tab-variant="${tab}"] [role="tab"][data-value="${tab}"]`)
      ?.focus();
}

function bindTabs(): void {
  for (const trigger of document.querySelectorAll<HTMLButtonElement>(
    '[data-frame-tab-variant] [role="tab"]',
  )) {
    const tab: Tab = trigger.dataset.value === 'signup' ? 'signup' : 'login';
    trigger.addEventListener('click', () => select(tab, true));
    trigger.addEventListener('keydown', (e) => {
      // Two tabs, focus moves and selects (Ark's automatic activation), wrapping round.
      const other: Tab = tab === 'login' ? 'signup' : 'login';
      const target =
        e.key === 'ArrowRight' || e.key === 'ArrowLeft'
          ? other
          : e.key === 'Home'
            ? 'login'
            : e.key === 'End'
              ? 'signup'
              : null;
      if (!target) return;
      e.preventDefault();
      if (target === currentTab()) return;
      select(target, true);
    });
  }
}

/** A visitor already signed in goes where signing in would have taken them. */
function leaveIfSignedIn(): void {
  fetch('/api/user', { credentials: 'include', headers: { Accept: 'application/json' } })
    .then(async (res) => (res.ok ? ((await res.json()) as SessionUserView | null) : null))
    .then((user) => {
      if (user) location.replace(destination());
    })
    .catch(() => {
      // The api cannot be reached: the forms say so when used.
    });
}

function start(): void {
  for (const tab of ['login', 'signup'] as const) {
    const form = formOf(tab);
    if (!form) continue;
    pristine.set(tab, form.cloneNode(true) as HTMLFormElement);
    bind(tab, form);
  }
  bindTabs();
  html.dataset.authReady = '';
  leaveIfSignedIn();
}

// Loaded after the first paint (src/islands/app-frame-boot.ts), which can come before the page is parsed.
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
