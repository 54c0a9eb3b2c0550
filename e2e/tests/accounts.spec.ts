import { expect, test } from '@playwright/test';
import {
  decodeQuotedPrintable,
  newUser,
  passwordField,
  signUp,
  submitLogin,
  waitForMail,
} from '../fixtures/helpers';

// Issue 4, Browser (Chromium): the whole account life cycle as a person clicks through it, with the reset
// link read from the mail the api really sent over SMTP.

const NEW_PASSWORD = 'N3w-Mapper-Pass!';

test('sign up, log out, log in, reset the password by email, delete the account', async ({ page }) => {
  const user = newUser('acct');
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));

  // sign up → dashboard, welcomed by first name, the header shows the display name
  await signUp(page, user, { expectToast: true });
  await expect(page.getByTestId('user-display-name')).toHaveText(user.firstName);
  await expect(page.getByRole('link', { name: 'Start New Mapping' })).toBeVisible();

  // log out → '/', and the dashboard is closed again
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page.getByText('Logged out successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/$/);

  // log in with the username
  await submitLogin(page, user.username, user.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Welcome back!')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${user.firstName}!` })).toBeVisible();
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/$/);

  // forgot password → Check Your Email
  await page.goto('/auth');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  // The URL changes before the page's chunk has loaded: until then the login form's "Email or username"
  // box is still there (and also matches the name 'Email'), so the reset form is waited for first.
  const resetForm = page.getByRole('form', { name: 'Request a password reset' });
  await expect(resetForm).toBeVisible();
  const requestedAt = Date.now();
  await resetForm.getByRole('textbox', { name: 'Email' }).fill(user.email.toUpperCase());
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
  await expect(page.getByText('The link expires in 1 hour.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try Different Email' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Login' })).toBeVisible();

  // the mail arrives over SMTP; its link points at the configured app URL
  const mail = decodeQuotedPrintable(await waitForMail(user.email, requestedAt - 1000));
  const link = /https?:\/\/[^\s"<>]+\/reset-password\?token=[A-Za-z0-9_%-]+/.exec(mail)?.[0];
  expect(link, 'a reset link in the mail').toBeTruthy();
  const url = new URL(link as string);
  expect(url.origin).toBe(new URL(process.env.E2E_BASE_URL as string).origin);
  expect(url.searchParams.get('token')?.length ?? 0).toBeGreaterThanOrEqual(43);

  // open it, choose a new password
  await page.goto(url.pathname + url.search);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  const submit = page.getByRole('button', { name: 'Reset Password' });
  await passwordField(page, 'New password').fill(NEW_PASSWORD);
  await passwordField(page, 'Confirm password').fill(`${NEW_PASSWORD}x`);
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await expect(submit).toBeDisabled();
  await passwordField(page, 'Confirm password').fill(NEW_PASSWORD);
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByRole('heading', { name: 'Password Reset Complete' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to Login' }).click();
  await expect(page).toHaveURL(/\/auth$/);

  // the old password no longer works, the new one does (by email this time)
  await submitLogin(page, user.email, user.password);
  await expect(page.getByText('Login failed')).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
  await submitLogin(page, user.email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);

  // the same link cannot be used twice
  await page.goto(url.pathname + url.search);
  await passwordField(page, 'New password').fill('An0ther-Pass-Word!');
  await passwordField(page, 'Confirm password').fill('An0ther-Pass-Word!');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Reset failed')).toBeVisible();

  // delete the account from the profile: password, browser confirmation, back on '/'
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Account Profile' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete Account' }).click();
  await expect(page.getByText('All your saved mappings will be removed')).toBeVisible();
  const confirmDelete = page.getByRole('button', { name: 'Permanently Delete Account' });
  await expect(confirmDelete).toBeDisabled();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.accept();
  });
  await page.getByRole('textbox', { name: 'Enter your password to confirm' }).fill(NEW_PASSWORD);
  await confirmDelete.click();
  await expect(page.getByText('Account Deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  expect(dialogs).toEqual([
    'Are you absolutely sure? This will permanently delete your account and cannot be undone.',
  ]);

  // the account is gone: neither password logs in
  await submitLogin(page, user.username, NEW_PASSWORD);
  await expect(page.getByText('Login failed')).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/$/);

  expect(errors).toEqual([]);
});

test('the sign-up password checklist turns into the green tick message once every rule passes', async ({
  page,
}) => {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  const rules = page.getByRole('list', { name: 'Password requirements' });
  const password = passwordField(page);

  await password.fill('abc');
  await expect(rules).toBeVisible();
  await expect(rules.getByText('Password must be at least 8 characters long')).toBeVisible();
  await expect(rules.getByRole('listitem').filter({ hasText: '(not met)' })).not.toHaveCount(0);
  await expect(page.getByText('Password meets all requirements')).toHaveCount(0);

  await password.fill('abcdefgH1');
  await expect(rules.getByRole('listitem').filter({ hasText: '(not met)' })).toHaveCount(1);

  await password.fill('abcdefgH1!');
  await expect(page.getByText('Password meets all requirements')).toBeVisible();
  await expect(rules).toHaveCount(0);

  // a too-common password is refused even though it has every kind of character
  await password.fill('Password123!');
  await expect(page.getByText('Password meets all requirements')).toHaveCount(0);
});

test('a wrong password shows Login failed and stays on /auth', async ({ page }) => {
  await submitLogin(page, 'nobody-here@example.test', 'Wr0ng-Password!');
  await expect(page.getByText('Login failed')).toBeVisible();
  await expect(page.getByText('Invalid username or password')).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
});
