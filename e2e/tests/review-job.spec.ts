import { expect, test, type Locator } from '@playwright/test';
import fs from 'node:fs';
import { newUser, signUpViaApi, subscribeToBusinessViaApi } from '../fixtures/helpers';
import { mapProductsAndGenerate } from '../support/files';

// The review of a background job (a file over the sync row limit, Business plan), through the browser:
// one value fixed by hand and offered for the other cells that hold it ("apply to all"), a row selected
// and deleted, the edits saved and re-run by the worker, and the corrected file's bytes compared. The
// sync review has its own test (review-grid.spec); both panels share the filters, the delete button and
// the apply-to-all bar.

const ROWS = 60_000; // over SYNC_ROW_LIMIT (50,000): a background job
const NA_EVERY = 10_000; // rows 10,000 … 60,000 say "N/A" for the price
const DELETED = 5; // a row with a bad price, deleted in the review

/** The rows whose price is "N/A", as the grid's row headers show them. */
const NA_ROWS = ['10,000', '20,000', '30,000', '40,000', '50,000', '60,000'];

const price = (i: number) => (i === DELETED ? 'x' : i % NA_EVERY === 0 ? 'N/A' : `${i % 100}.50`);

function dataCsv(): Buffer {
  const lines = ['Title,Price'];
  for (let i = 1; i <= ROWS; i++) lines.push(`Product ${i},${price(i)}`);
  return Buffer.from(lines.join('\r\n') + '\r\n', 'utf8');
}

/** What the corrected run must write: every "N/A" now 0.00, row 5 gone, the rest as mapped. */
function expectedCsv(): Buffer {
  const lines = ['Title,Variant Price'];
  for (let i = 1; i <= ROWS; i++) {
    if (i === DELETED) continue;
    lines.push(`Product ${i},${i % NA_EVERY === 0 ? '0.00' : price(i)}`);
  }
  return Buffer.from(lines.join('\r\n') + '\r\n', 'utf8');
}

/** The grid cell of a file row (1-based) and template column. */
function cell(grid: Locator, fileRow: number, column: string): Locator {
  const colIndex = ['Title', 'Variant Price'].indexOf(column) + 2;
  return grid.locator(`[role="row"][data-row="${fileRow}"] [role="gridcell"][aria-colindex="${colIndex}"]`);
}

test('background job review: a fix applied to every cell that held the value, a row deleted, re-run, corrected file downloaded', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUpViaApi(page, newUser('jobreview'));
  await subscribeToBusinessViaApi(page);
  await mapProductsAndGenerate(page, 'products-60k.csv', dataCsv());

  const panel = page.getByTestId('review-panel');
  const grid = panel.getByRole('grid', { name: 'Rows with problems' });
  // Seven problems: row 5's "x" and the six "N/A".
  await expect(panel.getByTestId('review-summary')).toHaveText('7 problems in 7 rows.', { timeout: 30_000 });
  await expect(grid.getByRole('rowheader')).toHaveText(['5', ...NA_ROWS]);
  await expect(cell(grid, 10_000, 'Variant Price')).toHaveText('N/A');
  await expect(cell(grid, 10_000, 'Variant Price')).toHaveAttribute('aria-invalid', 'true');

  // Fix one "N/A" by hand: the bar offers the same change for the five others.
  await cell(grid, 10_000, 'Variant Price').dblclick();
  const editor = grid.getByRole('textbox', { name: 'Variant Price, row 10000' });
  await expect(editor).toBeFocused();
  await editor.fill('0.00');
  await page.keyboard.press('Enter');
  await expect(cell(grid, 10_000, 'Variant Price')).toHaveText('0.00');
  const bar = panel.getByTestId('apply-to-all');
  await expect(bar).toContainText('5 other cells in Variant Price also hold “N/A”.');
  await bar.getByRole('button', { name: 'Change all to “0.00”' }).click();
  await expect(bar).toBeHidden();
  await expect(cell(grid, 60_000, 'Variant Price')).toHaveText('0.00');
  await expect(cell(grid, 60_000, 'Variant Price')).not.toHaveAttribute('aria-invalid', 'true');

  // Row 5 goes.
  await panel.getByRole('checkbox', { name: 'Select row 5', exact: true }).check();
  await panel.getByRole('button', { name: 'Delete 1 row' }).click();
  await expect(grid.getByRole('rowheader')).toHaveText(NA_ROWS);
  await expect(panel.getByTestId('review-counts')).toHaveText('6 cells edited · 1 row deleted');

  // Saved, re-run by the worker, downloaded: the whole file, byte for byte.
  await panel.getByRole('button', { name: 'Save edits and re-run' }).click();
  const link = panel.getByRole('link', { name: 'Download corrected CSV' });
  await expect(link).toBeVisible({ timeout: 120_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const bytes = fs.readFileSync(await download.path());
  expect(bytes.length).toBe(expectedCsv().length);
  expect(bytes.equals(expectedCsv())).toBe(true);
  expect(errors).toEqual([]);
});
