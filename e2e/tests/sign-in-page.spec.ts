import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { newUser, passwordField, signUp, submitLogin } from '../fixtures/helpers';

// Issue 31: /auth before sign-in is a static page whose forms work through a small island
// (apps/web/src/islands/auth-island.ts) instead of the app. What a visitor notices: no app code until
// signed in, the tabs by mouse and keyboard, the field checks, where signing in leads (?next=), and a
// signed-in visitor sent on.

/** The scripts the page requests until the network is quiet. */
async function scriptsOf(page: Page, url: string): Promise<string[]> {
  const scripts: string[] = [];
  const onRequest = (r: { resourceType(): string; url(): string }) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  };
  page.on('request', onRequest);
  await page.goto(url);
  await page.waitForLoadState('networkidle');
  page.off('request', onRequest);
  return scripts;
}

/**
 * Axe on the first screen (the Login tab), before the pointer has hovered anything. Not run on the Sign Up
 * tab: its rules list's met rows (green.600 on white, 3.3:1) are the app's own colours, kept as they are.
 */
async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

test('a visitor who is not signed in gets no app code: the forms work, the app loads after signing in', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Only what the page names: its boot script, which loads the island and the island's chunks after the
  // first paint (the same files scripts/check-js-budget.js holds to the budget).
  const html = await (await page.request.get('/auth')).text();
  const boot = /<script src="([^"]+)" data-island="([^"]+)" data-preload="([^"]*)"/.exec(html);
  expect(boot, 'the boot script names the island').toBeTruthy();
  const [, bootSrc, island, preload] = boot as RegExpExecArray;
  const named = new Set([bootSrc, island, ...preload.split(' ').filter(Boolean)]);
  const scripts = await scriptsOf(page, '/auth');
  expect(scripts).toContain(island);
  for (const s of scripts) expect(named, `${s} is not one of the page's own scripts`).toContain(s);
  await expect(page.locator('html[data-auth-ready]')).toHaveCount(1);
  await expectNoSeriousAxeViolations(page);

  // Tabs by keyboard: the arrow key selects Sign Up and focus follows.
  await page.getByRole('tab', { name: 'Login' }).focus();
  await page.keyboard.press('ArrowRight');
  const signUpTab = page.getByRole('tab', { name: 'Sign Up' });
  await expect(signUpTab).toHaveAttribute('aria-selected', 'true');
  await expect(signUpTab).toBeFocused();
  await expect(page.getByRole('heading', { level: 1, name: 'Create your free account' })).toBeVisible();

  // An address that is not one is named when the field is left, and cleared when it is edited.
  const form = page.getByRole('form', { name: 'Sign Up' });
  const email = form.getByRole('textbox', { name: 'Email' });
  await email.fill('not-an-address');
  await form.getByRole('textbox', { name: 'Username' }).focus();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await email.fill('ada@example.test');
  await expect(page.getByText('Please enter a valid email address')).toHaveCount(0);

  // Show password: the field shows its text, the button says what it does next.
  await passwordField(page).fill('abc');
  await form.getByRole('button', { name: 'Show password' }).click();
  await expect(passwordField(page)).toHaveAttribute('type', 'text');
  await form.getByRole('button', { name: 'Hide password' }).click();
  await expect(passwordField(page)).toHaveAttribute('type', 'password');

  // Back to Login by mouse: the sign-up form starts afresh next time, as the app's does.
  await page.getByRole('tab', { name: 'Login' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible();
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(
    page.getByRole('form', { name: 'Sign Up' }).getByRole('textbox', { name: 'Email' }),
  ).toHaveValue('');

  // A too-long identifier is refused before asking the api.
  await page.getByRole('tab', { name: 'Login' }).click();
  const login = page.getByRole('form', { name: 'Login' });
  await login.getByRole('textbox', { name: 'Email or username' }).fill('x'.repeat(300));
  await passwordField(page).fill('Wr0ng-Password!');
  await login.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Email or username is too long')).toBeVisible();

  expect(errors).toEqual([]);
});

test('signing in follows ?next= to a path of this site, and a signed-in visitor opening /auth is sent on', async ({
  page,
}) => {
  const user = newUser('signin');
  await signUp(page, user);
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto(`/auth?next=${encodeURIComponent('/profile')}`);
  const form = page.getByRole('form', { name: 'Login' });
  await form.getByRole('textbox', { name: 'Email or username' }).fill(user.email);
  await passwordField(page).fill(user.password);
  await form.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText('Welcome back!')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Account Profile' })).toBeVisible();

  // Signed in: /auth sends the visitor on, to ?next= when it names a path here, else the dashboard.
  await page.goto(`/auth?next=${encodeURIComponent('/saved-mappings')}`);
  await expect(page).toHaveURL(/\/saved-mappings$/);
  await page.goto(`/auth?next=${encodeURIComponent('https://evil.example/x')}`);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a refused log-in keeps the form as it was, ready to try again', async ({ page }) => {
  await submitLogin(page, 'nobody-here@example.test', 'Wr0ng-Password!');
  await expect(page.getByText('Login failed')).toBeVisible();
  const button = page.getByRole('form', { name: 'Login' }).getByRole('button', { name: 'Log In' });
  await expect(button).toBeEnabled();
  await expect(page.getByRole('textbox', { name: 'Email or username' })).toHaveValue(
    'nobody-here@example.test',
  );
  await expect(page).toHaveURL(/\/auth$/);
});

test('a tab clicked before the island has loaded still shows its form (the boot script switches it)', async ({
  page,
  request,
}) => {
  // The island named on the boot script never arrives, as on a slow phone before it has loaded.
  const island = /data-island="([^"]+)"/.exec(await (await request.get('/auth')).text())?.[1];
  expect(island, 'the page names its island').toBeTruthy();
  await page.route(`**${island}`, (route) => route.abort());
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(
    page.getByRole('form', { name: 'Sign Up' }).getByRole('textbox', { name: 'Username' }),
  ).toBeVisible();
  await expect(page.locator('html')).not.toHaveAttribute('data-auth-ready');
  await page.getByRole('tab', { name: 'Login' }).click();
  await expect(
    page.getByRole('form', { name: 'Login' }).getByRole('textbox', { name: 'Email or username' }),
  ).toBeVisible();
});
