import { expect, test, type Page } from '@playwright/test';
import { Client } from 'pg';
import { newUser, signUpViaApi } from '../fixtures/helpers';
import { chooseFile, csvFile } from '../support/files';

// Issue 16: an Enterprise user's upload zone sends the file straight to object storage (presigned PUT)
// with a progress bar of the bytes sent and a Cancel button. Runs against the api + worker that e2e/run.js
// starts with BLOB_STORE=s3 on an in-process S3 server (E2E_S3_BASE_URL).

const s3Base = process.env.E2E_S3_BASE_URL;
const s3Endpoint = process.env.E2E_S3_ENDPOINT as string;
test.skip(!s3Base, 'needs the s3 stack of e2e/run.js');
test.use({ baseURL: s3Base });

/** A data file of about `bytes` bytes. */
function bigCsv(bytes: number): Buffer {
  const lines = ['Name,Email,Date,Amount'];
  let size = lines[0].length + 2;
  for (let i = 1; size < bytes; i++) {
    const line = `Customer ${i},c${i}@example.com,2024-03-05,${i}.50`;
    lines.push(line);
    size += line.length + 2;
  }
  return Buffer.from(lines.join('\r\n') + '\r\n');
}

async function enterpriseUser(page: Page): Promise<void> {
  const user = newUser('s3');
  await signUpViaApi(page, user);
  const db = new Client({ connectionString: process.env.E2E_DATABASE_URL });
  await db.connect();
  await db.query(`UPDATE users SET plan = 'enterprise' WHERE username = $1`, [user.username]);
  await db.end();
}

/** Limits the page's upload speed so the progress bar can be seen moving (Chromium's network emulation). */
async function throttleUploads(page: Page, bytesPerSecond: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

test('uploads straight to storage with a progress bar of bytes sent, and cancels', async ({ page }) => {
  await enterpriseUser(page);
  const puts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT') puts.push(r.url());
  });
  await page.goto('/csv-mapper');
  await chooseFile(
    page,
    'template',
    csvFile('template.csv', Buffer.from('Customer,Contact Email,Order Date,Total\r\n')),
  );
  await expect(page.getByTestId('template-uploaded')).toContainText('4 columns');
  // The file went to the S3 server, not through the api.
  expect(puts).toHaveLength(1);
  expect(new URL(puts[0]).origin).toBe(s3Endpoint);

  // A 6 MB file at 512 KB/s: the bar shows bytes sent while the PUT runs.
  await throttleUploads(page, 512 * 1024);
  const data = bigCsv(6 * 1024 * 1024);
  const total = `${(data.length / (1024 * 1024)).toFixed(1)} MB`;
  await chooseFile(page, 'data', csvFile('customers.csv', data));
  const progress = page.getByTestId('data-upload-progress');
  await expect(progress).toBeVisible();
  await expect(progress.getByText(new RegExp(`^[1-9][0-9.]* MB of ${total} sent$`))).toBeVisible();
  const bar = progress.getByRole('progressbar', { name: 'Upload progress of the data file' });
  await expect(bar).toHaveAttribute('aria-valuenow', /^[1-9][0-9]?$/);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: 'test-output/e2e/direct-upload-1280.png' });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: 'test-output/e2e/direct-upload-375.png' });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Cancel: the PUT stops, the zone is empty again, nothing was kept.
  await progress.getByRole('button', { name: 'Cancel upload' }).click();
  await expect(page.getByText('Upload cancelled')).toBeVisible();
  await expect(progress).toBeHidden();
  await expect(
    page.getByTestId('data-dropzone').getByText('Drop your data CSV or Excel file here'),
  ).toBeVisible();

  // Again, to the end: the wizard moves on to mapping with the file's columns.
  await throttleUploads(page, -1);
  await chooseFile(page, 'data', csvFile('customers.csv', data));
  await expect(page.getByTestId('data-card').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-testid="data-card"][data-column="Email"]')).toBeVisible();
  expect(puts.filter((u) => new URL(u).origin !== new URL(page.url()).origin)).toHaveLength(3);
});
