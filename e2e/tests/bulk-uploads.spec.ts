import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import * as yauzl from 'yauzl';
import { newUser, signUpViaApi, subscribeToBusinessViaApi } from '../fixtures/helpers';
import { chooseFile } from '../support/files';

// Issue 17, Browser (Chromium): a Business user drops three data files on step 2 — one with other
// columns — maps once, generates, follows each file's progress, downloads the ZIP (two results, byte for
// byte) and reads why the third was left out; the dashboard lists the batch. At 1280 and 375 px.

const SCREEN_DIR = path.resolve(__dirname, '../../test-output/bulk-screens');

const TEMPLATE = 'Date,Description,Amount\r\n';
const JANUARY = 'Date,Description,Amount\r\n2026-01-03,Rent,-1200.00\r\n2026-01-15,Client A,2500.50\r\n';
const FEBRUARY = 'Date,Description,Amount\r\n2026-02-01,Rent,-1200.00\r\n';
const WRONG = 'When,Who,How much\r\n2026-03-01,Rent,-1200\r\n';

const csv = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

async function unzip(file: string): Promise<Map<string, string>> {
  const zip = await yauzl.fromBufferPromise(fs.readFileSync(file), { lazyEntries: true });
  const out = new Map<string, string>();
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const c of await zip.openReadStreamPromise(entry)) chunks.push(c as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
  }
  return out;
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const width of [1280, 375]) {
  test(`bulk upload of three files at ${width} px: two results in the ZIP, a clear reason for the third`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await signUpViaApi(page, newUser(`bulk${width}`));
    await subscribeToBusinessViaApi(page);
    await page.goto('/csv-mapper');

    await chooseFile(page, 'template', [csv('bank-import.csv', TEMPLATE)]);
    await expect(page.getByText('Step 2 of 4')).toBeVisible();
    await expect(page.getByTestId('data-dropzone').getByText(/choose up to 20 files/)).toBeVisible();
    await chooseFile(page, 'data', [
      csv('january.csv', JANUARY),
      csv('february.csv', FEBRUARY),
      csv('march.csv', WRONG),
    ]);
    await expect(page.getByText('Step 3 of 4')).toBeVisible();

    // The mapping is made on the first file; the panel lists all three and flags the odd one.
    const panel = page.getByTestId('bulk-files');
    await expect(panel.getByText('Bulk upload: 3 data files')).toBeVisible();
    const files = panel.getByRole('list', { name: 'Data files in this bulk upload' }).getByRole('listitem');
    await expect(files).toHaveCount(3);
    await expect(files.nth(0)).toContainText('january.csv');
    await expect(files.nth(0)).toContainText('Used for the mapping');
    await expect(files.nth(2)).toContainText('march.csv');
    await expect(files.nth(2)).toContainText('Different columns');
    await expect(page.getByText('3 of 3 columns mapped')).toBeVisible();
    await noSidewaysScroll(page);
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREEN_DIR, `step3-${width}.png`) });

    const generate = page.getByRole('button', { name: 'Generate CSV' });
    await generate.scrollIntoViewIfNeeded();
    await generate.click();

    const progress = page.getByTestId('batch-progress');
    await expect(progress).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
    await expect(progress.getByRole('heading', { name: 'Bulk upload finished' })).toBeVisible();
    await expect(page.getByTestId('batch-summary')).toHaveText('2 of 2 files finished · 3 of 3 rows');
    const rejected = page.getByTestId('batch-rejected');
    await expect(rejected).toContainText('1 file was not processed');
    await expect(rejected).toContainText('march.csv: "Date" is not a column of the data file.');
    const rows = progress.getByRole('list', { name: 'Files in this bulk upload' }).getByRole('listitem');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText('january.csv');
    await expect(rows.nth(0)).toContainText('Completed');
    await expect(rows.nth(0)).toContainText('2 of 2 rows');
    await expect(rows.nth(1)).toContainText('february.csv');
    await noSidewaysScroll(page);
    await page.screenshot({ path: path.join(SCREEN_DIR, `step4-${width}.png`), fullPage: true });

    const [zipDownload] = await Promise.all([
      page.waitForEvent('download'),
      progress.getByRole('link', { name: 'Download all (ZIP)' }).click(),
    ]);
    expect(zipDownload.suggestedFilename()).toMatch(/^batch-[0-9a-f]{8}\.zip$/);
    const entries = await unzip(await zipDownload.path());
    expect([...entries.keys()]).toEqual(['mapped_january.csv', 'mapped_february.csv']);
    expect(entries.get('mapped_january.csv')).toBe(JANUARY);
    expect(entries.get('mapped_february.csv')).toBe(FEBRUARY);

    // One file on its own, from its row.
    const [single] = await Promise.all([
      page.waitForEvent('download'),
      rows.nth(1).getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    expect(fs.readFileSync(await single.path(), 'utf8')).toBe(FEBRUARY);

    // The dashboard lists the batch with its ZIP.
    await page.goto('/dashboard');
    const recent = page.getByTestId('recent-batch');
    await expect(recent).toHaveCount(1);
    await expect(recent).toContainText('bank-import.csv');
    await expect(recent).toContainText('2 of 2 files finished');
    await expect(recent).toContainText('1 not processed');
    await expect(recent.getByRole('link', { name: 'Download all (ZIP)' })).toBeVisible();
    await noSidewaysScroll(page);
    await recent.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREEN_DIR, `dashboard-${width}.png`) });
  });
}
