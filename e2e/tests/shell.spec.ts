import { expect, test } from '@playwright/test';

test('home page renders in Chromium with its call to action', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Get Started Free' }).first()).toBeVisible();
  await expect(page).toHaveTitle(/CSV Mapper/);
  expect(errors).toEqual([]);
});

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/this/page/does-not-exist');
  await expect(page.getByText('404 Page Not Found')).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
});

test('a protected page sends a signed-out visitor to the home page', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Get Started Free' }).first()).toBeVisible();
});

test('the api answers JSON errors beside the SPA', async ({ request }) => {
  const res = await request.get('/api/nothing-here');
  expect(res.status()).toBe(404);
  expect(await res.json()).toEqual({
    error: 'No API route matches GET /api/nothing-here.',
    code: 'NOT_FOUND',
  });
});
