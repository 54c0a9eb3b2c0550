import { expect, test, type Locator, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { newUser, signUpViaApi } from '../fixtures/helpers';
import { chooseFile, csvFile, generateCsv } from '../support/files';

// Issue 22, Browser (Chromium): a Shopify product import whose Handle is built from Title (combine → slug),
// a column rule added by the user, and the step-4 review grid: the two problems shown, fixed in place with
// the keyboard, and the corrected file downloaded. Screens are saved at 1280 and 375 px for review.

const TEMPLATE_CSV = 'Handle,Title,Variant Price\r\n';
const DATA_CSV = ['Title,Price', 'Blue Mug,12.50', ',9.99', 'Red Cup,1O.00'].join('\r\n') + '\r\n';
const shots = path.join(__dirname, '..', '..', 'test-output', 'screens');

async function shot(page: Page, name: string, target?: Locator) {
  fs.mkdirSync(shots, { recursive: true });
  const file = path.join(shots, `${name}.png`);
  if (target) await target.screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: true });
}

/** The grid cell of a file row (1-based) and template column. */
function cell(grid: Locator, fileRow: number, column: string): Locator {
  const colIndex = ['Handle', 'Title', 'Variant Price'].indexOf(column) + 2;
  return grid.locator(`[role="row"][data-row="${fileRow}"] [role="gridcell"][aria-colindex="${colIndex}"]`);
}

async function mapTo(page: Page) {
  await page.goto('/csv-mapper');
  await chooseFile(page, 'template', csvFile('shopify-products.csv', TEMPLATE_CSV));
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  await chooseFile(page, 'data', csvFile('catalogue.csv', DATA_CSV));
  await expect(page.getByText('Step 3 of 4')).toBeVisible();

  // Handle is not a column of the export: it is built from Title, then made a URL handle.
  await page.getByRole('combobox', { name: 'Data column for Title' }).selectOption('Title');
  await page.getByRole('combobox', { name: 'Data column for Variant Price' }).selectOption('Price');
  await page.getByRole('combobox', { name: 'Transform for Variant Price' }).selectOption('amount');
  const handle = page.getByRole('combobox', { name: 'Data column for Handle' });
  if ((await handle.inputValue()) !== '') {
    await page.getByRole('button', { name: 'Unmap Handle' }).click();
  }
  await page.getByRole('combobox', { name: 'Transform for Handle' }).selectOption('combine');
  // Until the pattern is written the preview says what is missing, for which column.
  await expect(page.getByTestId('preview-error')).toHaveText(
    'For "Handle", the combine pattern is empty: write the data columns to join in braces, like {First Name} {Last Name}.',
  );
  await page.getByRole('textbox', { name: 'Combine pattern for Handle' }).fill('{Title}');
  await expect(page.getByTestId('preview-error')).toHaveCount(0);
  await page.getByRole('button', { name: 'Add a step to Handle' }).click();
  await page.getByRole('combobox', { name: 'Step 2 for Handle' }).selectOption('slug');
  await expect(page.getByText('3 of 3 columns mapped')).toBeVisible();

  // A rule on the uploaded template: Title may not be empty.
  const rules = page.getByTestId('rules-editor');
  await rules.getByRole('combobox', { name: 'Template column to set rules for' }).selectOption('Title');
  await rules.getByText('Required', { exact: true }).click();
  await expect(rules.getByTestId('rules-summary')).toContainText('Title: required');

  // The live preview already applies combine → slug.
  await expect(page.getByText('blue-mug').first()).toBeVisible();
}

test('Shopify import: the grid shows the two problems, both are fixed in place, the corrected file downloads', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUpViaApi(page, newUser('grid'));
  await mapTo(page);
  await shot(page, 'step3-1280');
  // The preview highlights the two cells (empty required title, unreadable price), no column notes.
  const preview = page.getByTestId('mapping-preview');
  await expect(preview.locator('[data-warning="true"]')).toHaveCount(2);
  await expect(page.getByTestId('column-notes')).toHaveCount(0);

  await page.getByRole('button', { name: 'Generate CSV' }).click();
  await expect(page.getByText('Complete!')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('result-warnings')).toContainText('2 values to check (written as they were)');
  const panel = page.getByTestId('review-panel');
  await expect(panel.getByTestId('review-summary')).toHaveText('2 problems in 2 rows of 3.');
  const grid = panel.getByRole('grid', { name: 'Rows with problems' });
  // Only the rows with problems: data rows 2 (empty title) and 3 (a letter in the price).
  await expect(grid.locator('[role="row"][data-row]')).toHaveCount(2);
  await expect(grid.getByRole('rowheader')).toHaveText(['2', '3']);
  await expect(cell(grid, 2, 'Title')).toHaveAttribute('aria-invalid', 'true');
  await expect(cell(grid, 2, 'Title')).toHaveAttribute('aria-description', /required/i);
  await expect(cell(grid, 3, 'Variant Price')).toHaveAttribute('aria-invalid', 'true');
  await expect(cell(grid, 3, 'Variant Price')).toHaveText('1O.00');
  await expect(cell(grid, 2, 'Handle')).not.toHaveAttribute('aria-invalid', 'true');
  await shot(page, 'step4-1280');

  // Keyboard: click the first cell, arrow to Title, Enter edits; an empty value is refused as you type.
  await cell(grid, 2, 'Handle').click();
  await page.keyboard.press('ArrowRight');
  await expect(grid).toHaveAttribute(
    'aria-activedescendant',
    (await cell(grid, 2, 'Title').getAttribute('id')) ?? '',
  );
  await page.keyboard.press('Enter');
  const editor = grid.getByRole('textbox', { name: 'Title, row 2' });
  await expect(editor).toBeFocused();
  await expect(panel.getByTestId('review-grid-check')).toHaveText('Required value is empty');
  await editor.fill('Green Plate');
  await expect(panel.getByTestId('review-grid-check')).toHaveText(
    'Looks right. Enter saves, Escape cancels.',
  );
  // Escape cancels: the cell is unchanged.
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  await expect(cell(grid, 2, 'Title')).toHaveAttribute('aria-invalid', 'true');
  // Typing starts an edit that replaces the value; Enter saves and moves down.
  await page.keyboard.type('Green Plate');
  await page.keyboard.press('Enter');
  await expect(cell(grid, 2, 'Title')).toHaveText('Green Plate');
  await expect(cell(grid, 2, 'Title')).not.toHaveAttribute('aria-invalid', 'true');
  // The handle the empty title produced is set by hand too.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await page.keyboard.type('green-plate');
  await page.keyboard.press('Enter');
  // Down to row 3, right to the price.
  await page.keyboard.press('End');
  await page.keyboard.type('10.00');
  await page.keyboard.press('Enter');
  await expect(cell(grid, 3, 'Variant Price')).toHaveText('10.00');
  await expect(panel.getByTestId('review-summary')).toHaveText('No problems left in 3 rows.');
  await expect(panel.getByTestId('review-counts')).toHaveText('3 cells edited · 0 rows deleted');
  await shot(page, 'step4-fixed-1280');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Download corrected CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/_corrected\.csv$/);
  const bytes = fs.readFileSync(await download.path());
  expect(
    bytes.equals(
      Buffer.from(
        'Handle,Title,Variant Price\r\nblue-mug,Blue Mug,12.50\r\ngreen-plate,Green Plate,9.99\r\nred-cup,Red Cup,10.00\r\n',
        'utf8',
      ),
    ),
  ).toBe(true);
  expect(errors).toEqual([]);
});

test('on a 375 px phone the mapping editors and the review grid fit and the grid scrolls sideways', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signUpViaApi(page, newUser('gridphone'));
  await mapTo(page);
  await shot(page, 'step3-375');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await generateCsv(page);
  const panel = page.getByTestId('review-panel');
  await expect(panel.getByTestId('review-summary')).toHaveText('2 problems in 2 rows of 3.');
  await panel.scrollIntoViewIfNeeded();
  await shot(page, 'step4-375');
  const after = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(after).toBeLessThanOrEqual(0);
  // Rows can be selected and deleted; the problem count follows.
  await panel.getByRole('checkbox', { name: 'Select row 3' }).check();
  await panel.getByRole('button', { name: 'Delete 1 row' }).click();
  await expect(panel.getByTestId('review-summary')).toHaveText('1 problem in 1 row of 3.');
  await expect(panel.getByTestId('review-counts')).toHaveText('0 cells edited · 1 row deleted');
});

test('mapping editors: a value table pre-filled from the column, split presets, a bad regex named', async ({
  page,
}) => {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    if (width === 1280) await signUpViaApi(page, newUser('editors'));
    await page.goto('/csv-mapper');
    await chooseFile(page, 'template', csvFile('crm-template.csv', 'Name,Active,City,State\r\n'));
    await chooseFile(
      page,
      'data',
      csvFile(
        'crm.csv',
        'Full Name,Active,Place\r\nDr. Ana María de la Cruz Jr.,Y,"Springfield, IL 62704"\r\nBob Li,N,"Austin, TX 73301"\r\n',
      ),
    );
    await expect(page.getByText('Step 3 of 4')).toBeVisible();
    await page.getByRole('combobox', { name: 'Data column for Active' }).selectOption('Active');
    await page.getByRole('combobox', { name: 'Transform for Active' }).selectOption('mapValues');
    // The table lists the column's values; the user types only the right-hand side.
    await expect(page.getByRole('textbox', { name: 'Active: replacement for “Y”' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Active: replacement for “Y”' }).fill('TRUE');
    await page.getByRole('textbox', { name: 'Active: replacement for “N”' }).fill('FALSE');
    await page.getByRole('combobox', { name: 'Data column for City' }).selectOption('Place');
    await page.getByRole('combobox', { name: 'Transform for City' }).selectOption('split');
    await page.getByRole('combobox', { name: 'Split mode for City' }).selectOption('cityStateZip');
    await expect(page.getByRole('combobox', { name: 'Part for City' })).toHaveValue('city');
    await page.getByRole('combobox', { name: 'Data column for Name' }).selectOption('Full Name');
    await page.getByRole('combobox', { name: 'Transform for Name' }).selectOption('replace');
    await page.getByText('Regular expression').click();
    await page.getByRole('textbox', { name: 'Find in Name' }).fill('(Dr');
    await expect(page.getByRole('alert').filter({ hasText: /regular expression|group/i })).toBeVisible();
    await page.getByRole('textbox', { name: 'Find in Name' }).fill('^Dr\\. ');
    // The live preview shows the value table and the split applied by the engine.
    const preview = page.getByRole('table').last();
    await expect(preview.getByText('TRUE')).toBeVisible();
    await expect(preview.getByText('Springfield', { exact: true })).toBeVisible();
    await shot(page, `editors-${width}`);
    if (width === 375) {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }
  }
});
