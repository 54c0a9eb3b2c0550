import { expect, test, type Page } from '@playwright/test';
import {
  apiPost,
  createMappingViaApi,
  newUser,
  signUp,
  signUpViaApi,
  subscribeToBusiness,
} from '../fixtures/helpers';
import { chooseFile, csvFile } from '../support/files';

// Issue 7, Browser (Chromium): plans and billing end to end against the simulated provider — checkout,
// the return with ?success=true, the limits that come with Pro, cancel / reactivate with the browser's
// confirmation, the period end passing (simulated clock) → Free with locked mappings; a declined card.

const CANCEL_CONFIRM =
  'Are you sure you want to cancel your subscription? You will lose premium features at the end of your billing period.';

const currentPlanCard = (page: Page) => page.locator('[aria-labelledby="current-plan-title"]');

/** The Pro card of the plan grid → Confirm Plan Change → Subscribe Now → the simulated checkout page. */
async function subscribeToProFromProfile(page: Page): Promise<void> {
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeVisible();
  const pro = page.getByTestId('plan-card-pro');
  await expect(pro.getByText('£12', { exact: true })).toBeVisible();
  await expect(pro.getByText('10 saved mappings')).toBeVisible();
  await expect(
    page.getByTestId('plan-card-free').getByRole('button', { name: 'Current Plan' }),
  ).toBeDisabled();
  await expect(
    page.getByTestId('plan-card-enterprise').getByRole('link', { name: 'Contact Sales' }),
  ).toHaveAttribute('href', /^mailto:/);
  await pro.getByRole('button', { name: 'Upgrade to Pro' }).click();

  const dialog = page.getByRole('dialog', { name: 'Confirm Plan Change' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Price: £0/month to £12/month')).toBeVisible();
  await expect(dialog).toContainText('Your subscription begins today');
  await dialog.getByRole('button', { name: 'Subscribe Now' }).click();
  await expect(page).toHaveURL(/\/billing\/checkout\/[^/]+$/);
}

/** 1.5 MB of valid CSV (~16k rows): over Free's 1 MB and 10,000 rows, well inside Pro. */
function bigCsv(): Buffer {
  const lines = ['id,value'];
  let size = 9;
  for (let i = 0; size < 1.5 * 1024 * 1024; i++) {
    const line = `${i},${'x'.repeat(90)}`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(lines.join('\n'), 'utf8');
}

test('free → Pro through checkout, cancel, reactivate, cancel, period end → Free with locked mappings', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const user = newUser('bill');
  await signUpViaApi(page, user);

  await subscribeToProFromProfile(page);
  await expect(page.getByText('Subscribe to Pro')).toBeVisible();
  await expect(page.getByText(user.email)).toBeVisible();
  await expect(page.getByText('£12/month')).toBeVisible();

  // Pay → back on the mapper; the parameters leave the address bar; the sync is asked 2 s later
  const syncRequest = page.waitForRequest('**/api/sync-subscription-status');
  await page.getByRole('button', { name: 'Pay £12.00' }).click();
  await expect(page).toHaveURL(/\/csv-mapper$/);
  const landedAt = Date.now();
  await syncRequest;
  expect(Date.now() - landedAt).toBeGreaterThanOrEqual(1500);

  // the new limits apply to an upload: 1.5 MB and ~16k rows are accepted
  await chooseFile(page, 'template', csvFile('template.csv', Buffer.from('id,value\r\n')));
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  await chooseFile(page, 'data', csvFile('big-export.csv', bigCsv()));
  await expect(page.getByText('Step 3 of 4')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'File Too Large' })).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: 'File Has Too Many Rows' })).toHaveCount(0);

  // the profile shows Pro, the active subscription and the Pro limits
  await page.goto('/profile');
  const card = currentPlanCard(page);
  await expect(card.getByText('Pro', { exact: true })).toBeVisible();
  await expect(card.getByText('£12/month')).toBeVisible();
  await expect(card.getByText('Active subscription')).toBeVisible();
  await expect(card.getByText('25MB')).toBeVisible();
  await expect(card.getByText('250k')).toBeVisible();
  await expect(page.getByTestId('plan-card-pro').getByRole('button', { name: 'Current Plan' })).toBeVisible();

  // three saved mappings while on Pro (limit 10)
  for (const name of ['First mapping', 'Second mapping', 'Third mapping']) {
    await createMappingViaApi(page, name);
  }

  // cancelling asks first; saying no changes nothing
  page.once('dialog', (d) => void d.dismiss());
  await card.getByRole('button', { name: 'Cancel Subscription' }).click();
  await expect(card.getByText('Active subscription')).toBeVisible();

  let confirmText = '';
  page.once('dialog', (d) => {
    confirmText = d.message();
    void d.accept();
  });
  await card.getByRole('button', { name: 'Cancel Subscription' }).click();
  await expect(card.getByText(/^Subscription cancelling on \d{2}\/\d{2}\/\d{4}$/)).toBeVisible();
  expect(confirmText).toBe(CANCEL_CONFIRM);
  await expect(card.getByText("You'll keep access to premium features until then")).toBeVisible();
  await expect(card.getByText('Pro', { exact: true })).toBeVisible();

  // reactivate, then cancel again
  await card.getByRole('button', { name: 'Reactivate Subscription' }).click();
  await expect(card.getByText('Active subscription')).toBeVisible();
  page.once('dialog', (d) => void d.accept());
  await card.getByRole('button', { name: 'Cancel Subscription' }).click();
  await expect(card.getByText(/^Subscription cancelling on \d{2}\/\d{2}\/\d{4}$/)).toBeVisible();

  // the billing period ends
  await apiPost(page, '/api/test/advance-clock', { days: 40 });

  // Free again: only the first mapping is usable; the upgrade dialog opens once
  await page.goto('/saved-mappings');
  const locked = page.getByRole('dialog', { name: 'Upgrade Required' });
  await expect(locked).toBeVisible();
  await expect(locked).toContainText('2 mappings are locked');
  await locked.getByRole('button', { name: 'Maybe Later' }).click();
  await expect(locked).toBeHidden();
  await expect(page.getByText('Subscription Expired')).toBeVisible();
  await expect(page.getByTestId('saved-mapping-card')).toHaveCount(3);
  await expect(page.getByTestId('saved-mapping-card').filter({ hasText: 'Upgrade Required' })).toHaveCount(2);
  await expect(page.getByRole('link', { name: 'Use Mapping' })).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Upgrade to Use' })).toHaveCount(2);
  await expect(page.getByRole('link', { name: 'Upgrade to Pro' }).first()).toHaveAttribute(
    'href',
    '/profile#plans',
  );
  await page.reload();
  await expect(page.getByTestId('saved-mapping-card')).toHaveCount(3);
  await expect(page.getByRole('dialog', { name: 'Upgrade Required' })).toHaveCount(0);

  await page.goto('/profile');
  await expect(currentPlanCard(page).getByText('Free', { exact: true })).toBeVisible();
  await expect(currentPlanCard(page).getByText('1MB')).toBeVisible();
  await expect(page.getByText('Subscription Expired')).toBeVisible();
});

test('a declined card leaves the subscription incomplete; the simulated webhook completes it', async ({
  page,
}) => {
  await signUp(page, newUser('decl'));

  // the dashboard's upgrade card goes straight to checkout for a free user
  const upgrade = page.getByRole('button', { name: 'Upgrade to Pro' });
  await expect(upgrade).toBeVisible();
  await upgrade.click();
  await expect(page).toHaveURL(/\/billing\/checkout\/[^/]+$/);
  await page.getByRole('button', { name: 'Simulate declined card' }).click();
  await expect(page).toHaveURL(/\/csv-mapper$/);

  await page.goto('/profile');
  const card = currentPlanCard(page);
  await expect(card.getByText('Subscription Status: incomplete')).toBeVisible();
  await expect(card.getByText('Free', { exact: true })).toBeVisible();
  await expect(card.getByText(/try simulating the payment webhook first/)).toBeVisible();
  await expect(card.getByRole('button', { name: 'Reset & Try Again' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);

  await card.getByRole('button', { name: 'Simulate Payment Webhook' }).click();
  await expect(card.getByText('Active subscription')).toBeVisible();
  await expect(card.getByText('Pro', { exact: true })).toBeVisible();
});

test('cancelling the checkout returns to the mapper and refreshes the profile without the cache', async ({
  page,
}) => {
  await signUpViaApi(page, newUser('canc'));
  await subscribeToProFromProfile(page);
  const refresh = page.waitForRequest(/\/api\/user\/profile\?t=\d+$/);
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page).toHaveURL(/\/csv-mapper$/);
  await refresh;

  await page.goto('/profile');
  await expect(currentPlanCard(page).getByText('Free', { exact: true })).toBeVisible();
  await expect(currentPlanCard(page).getByTestId('subscription-status')).toHaveCount(0);
});

test('an incomplete payment that is never completed expires: Subscription Payment Failed, still Free', async ({
  page,
}) => {
  await signUpViaApi(page, newUser('expd'));
  await subscribeToProFromProfile(page);
  await page.getByRole('button', { name: 'Simulate declined card' }).click();
  await expect(page).toHaveURL(/\/csv-mapper$/);

  await apiPost(page, '/api/test/advance-clock', { days: 1 });
  await page.goto('/profile');
  const card = currentPlanCard(page);
  await expect(card.getByText('Subscription Payment Failed')).toBeVisible();
  await expect(card.getByText(/downgraded to the Free plan/)).toBeVisible();
  await expect(card.getByText('Free', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Simulate Payment Webhook' })).toHaveCount(0);
  await expect(
    page.getByTestId('plan-card-pro').getByRole('button', { name: 'Upgrade to Pro' }),
  ).toBeEnabled();
});

test('Business → Pro is confirmed for the next billing cycle; → Free is requested directly', async ({
  page,
}) => {
  await signUpViaApi(page, newUser('busi'));
  await subscribeToBusiness(page);

  await page.goto('/profile');
  const card = currentPlanCard(page);
  await expect(card.getByText('Business', { exact: true })).toBeVisible();
  await expect(card.getByText('Active subscription')).toBeVisible();

  await page.getByTestId('plan-card-pro').getByRole('button', { name: 'Downgrade to Pro' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Plan Change' });
  await expect(dialog.getByLabel('Price: £39/month to £12/month')).toBeVisible();
  await expect(dialog).toContainText('next billing cycle');
  await dialog.getByRole('button', { name: 'Confirm Change' }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText(/^Your plan changes to Pro on \d{2}\/\d{2}\/\d{4}/)).toBeVisible();
  await expect(card.getByText('Business', { exact: true })).toBeVisible();
  await expect(
    page.getByTestId('plan-card-pro').getByRole('button', { name: 'Change scheduled' }),
  ).toBeDisabled();

  await page.getByTestId('plan-card-free').getByRole('button', { name: 'Downgrade to Free' }).click();
  await expect(card.getByText(/^Subscription cancelling on \d{2}\/\d{2}\/\d{4}$/)).toBeVisible();
  await expect(
    page.getByTestId('plan-card-free').getByRole('button', { name: 'Downgrade scheduled' }),
  ).toBeDisabled();
});
