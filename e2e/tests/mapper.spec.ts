import { expect, test, type Locator, type Page } from '@playwright/test';
import fs from 'node:fs';
import { newUser, signUp, signUpViaApi } from '../fixtures/helpers';
import { chooseFile, csvFile, generateCsv } from '../support/files';

// Issue 5, Browser (Chromium): the mapping workflow as a person does it — upload through the file
// chooser, drag with the mouse, map with the keyboard, transforms with a live preview, generate, download,
// save, reuse; plus the two upload dialogs and a 375 px phone.

const TEMPLATE_CSV = 'Customer,Contact Email,Order Date,Total\r\n';
const DATA_CSV = [
  'Name,Email,Date,Amount,Notes',
  '"Smith, Alice",alice@example.com,2024-03-05,1234.5,first order',
  'Bob Jones,bob@example.com,2024-12-31,99,"called, left message"',
  'Carla Díaz,carla@example.com,2025-01-15,1000.25,',
].join('\r\n');

const dataCard = (page: Page, column: string) =>
  page.locator(`[data-testid="data-card"][data-column="${column}"]`);
const templateCard = (page: Page, column: string) =>
  page.locator(`[data-testid="template-card"][data-column="${column}"]`);

/**
 * A pointer drag in small steps, as @dnd-kit's pointer sensor (4 px activation distance) needs. The target
 * is centred first: near a viewport edge @dnd-kit auto-scrolls the page under the pointer.
 */
async function drag(page: Page, from: Locator, to: Locator): Promise<void> {
  await to.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await expect(from).toBeInViewport();
  const a = await from.boundingBox();
  if (!a) throw new Error('drag source not visible');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 5, { steps: 5 });
  const b = await to.boundingBox();
  if (!b) throw new Error('drop target not visible');
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
}

/** Keyboard mapping: each arrow press is checked against the announcement before the next one. */
async function keyboardDrop(page: Page, data: string, target: string, order: string[]): Promise<void> {
  const live = page.locator('[id^="DndLiveRegion"]');
  await dataCard(page, data).focus();
  await page.keyboard.press('Space');
  // picked up: the nearest template column is the first one it is over
  await expect(live).toHaveText(/Over template column (.+)\.$/);
  const first = /Over template column (.+)\.$/.exec((await live.textContent()) ?? '')?.[1] ?? '';
  let at = order.indexOf(first);
  expect(at, `the card starts over a template column (${first})`).toBeGreaterThanOrEqual(0);
  const goal = order.indexOf(target);
  while (at !== goal) {
    const down = at < goal;
    const from = order[at];
    at += down ? 1 : -1;
    // dnd-kit's keyboard sensor starts listening for keys one task after the pick-up (a setTimeout), and
    // Chromium may deliver a key press first, which is then lost: a press that moved nothing (still over the
    // same column) is repeated, a few times at most; the card must never skip a column.
    for (let tries = 1; ; tries++) {
      await page.keyboard.press(down ? 'ArrowDown' : 'ArrowUp');
      try {
        await expect(live).toHaveText(`Over template column ${order[at]}.`, { timeout: 2000 });
        break;
      } catch (err) {
        await expect(live).toHaveText(`Over template column ${from}.`);
        if (tries === 3) throw err;
      }
    }
  }
  await page.keyboard.press('Space');
  await expect(live).toHaveText(`Mapped ${data} to ${target}.`);
}

async function expectMapped(page: Page, template: string, data: string): Promise<void> {
  const card = templateCard(page, template);
  await expect(card.getByText('Mapped', { exact: true })).toBeVisible();
  await expect(card.getByText(`← ${data}`)).toBeVisible();
}

async function downloadCsv(page: Page, button: Locator): Promise<{ name: string; text: string }> {
  const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return { name: dl.suggestedFilename(), text: fs.readFileSync(await dl.path(), 'utf8') };
}

/** Uploads the two files of the main flow and leaves the wizard at step 3. */
async function uploadBoth(page: Page): Promise<void> {
  await page.goto('/csv-mapper');
  await expect(page.getByRole('heading', { name: 'Map Your CSV Data' })).toBeVisible();
  await expect(page.getByText('Step 1 of 4')).toBeVisible();
  await expect(page.getByText('Maximum file size: 1MB').first()).toBeVisible();
  await chooseFile(page, 'template', csvFile('shop-template.csv', TEMPLATE_CSV), { prompted: true });
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  const template = page.getByTestId('template-uploaded');
  await expect(template.getByText('shop-template.csv')).toBeVisible();
  await expect(template.getByText('4 columns detected')).toBeVisible();
  await expect(template.getByText('Template Headers:')).toBeVisible();

  await chooseFile(page, 'data', csvFile('orders-march.csv', DATA_CSV), { prompted: true });
  await expect(page.getByText('Step 3 of 4')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Data Columns' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Template Columns' })).toBeVisible();
}

test('upload, drag and keyboard mapping, transform preview, generate, download, save and reuse', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signUp(page, newUser('map'));
  await page.getByRole('link', { name: 'Start New Mapping' }).click();
  await uploadBoth(page);

  // the server's suggester fills columns from the names and values; clear them to map by hand
  await expect(
    page.getByText(/\d suggested mappings? filled in from the column names and values\./),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Clear suggestions' }).click();
  await expect(page.getByText('0 of 4 columns mapped')).toBeVisible();
  for (const t of ['Customer', 'Contact Email', 'Order Date', 'Total']) {
    await expect(templateCard(page, t).getByText('Required', { exact: true })).toBeVisible();
    await expect(templateCard(page, t).getByText('Drop a data column here')).toBeVisible();
  }
  await expect(dataCard(page, 'Name').getByText('Unmapped')).toBeVisible();
  await expect(dataCard(page, 'Name').getByText('Smith, Alice')).toBeVisible();
  const generate = page.getByRole('button', { name: 'Generate CSV' });
  await expect(generate).toBeDisabled();

  // three columns with the mouse
  await drag(page, dataCard(page, 'Name'), templateCard(page, 'Customer'));
  await expectMapped(page, 'Customer', 'Name');
  await expect(dataCard(page, 'Name').getByText('Mapped', { exact: true })).toBeVisible();
  await drag(page, dataCard(page, 'Email'), templateCard(page, 'Contact Email'));
  await expectMapped(page, 'Contact Email', 'Email');
  await drag(page, dataCard(page, 'Date'), templateCard(page, 'Order Date'));
  await expectMapped(page, 'Order Date', 'Date');
  await expect(page.getByText('3 of 4 columns mapped')).toBeVisible();
  await expect(generate).toBeDisabled();

  // one with the keyboard: focus the card, Space picks it up, arrow keys move from template column to
  // template column (as the drag-and-drop live region announces), Space drops
  await keyboardDrop(page, 'Amount', 'Total', ['Customer', 'Contact Email', 'Order Date', 'Total']);
  await expectMapped(page, 'Total', 'Amount');
  await expect(page.getByText('4 of 4 columns mapped')).toBeVisible();
  await expect(generate).toBeEnabled();

  // the live preview shows the first rows as they will be written; a transform changes it
  const preview = page.getByTestId('mapping-preview');
  await expect(page.getByText('First 3 of 3 rows as they will be written.')).toBeVisible();
  await expect(preview.getByRole('row').nth(1)).toContainText('2024-03-05');
  await expect(preview.getByRole('row').nth(1)).toContainText('1234.5');
  await page.getByRole('combobox', { name: 'Transform for Order Date' }).selectOption('Date');
  await expect(page.getByRole('combobox', { name: 'Date format for Order Date' })).toHaveValue('MM/DD/YYYY');
  await expect(preview.getByRole('row').nth(1)).toContainText('03/05/2024');
  await expect(preview.getByRole('row').nth(1)).not.toContainText('2024-03-05');
  await page.getByRole('combobox', { name: 'Transform for Total' }).selectOption('Amount');
  await expect(page.getByRole('combobox', { name: 'Decimals for Total' })).toHaveValue('2');
  await expect(preview.getByRole('row').nth(1)).toContainText('1234.50');
  await expect(preview.getByRole('row').nth(2)).toContainText('99.00');

  // generate: the simulated progress, then the success view
  await generate.click();
  await expect(page.getByText('Step 4 of 4')).toBeVisible();
  await expect(page.getByText('Reading template structure...')).toBeVisible();
  await expect(page.getByText('Complete!')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('CSV generated successfully')).toBeVisible();
  await expect(page.getByTestId('output-filename')).toHaveText('mapped_orders-march.csv');
  await expect(page.locator('#main').getByText('3 rows processed')).toBeVisible();

  // download: every row of the file
  const file = await downloadCsv(page, page.getByRole('button', { name: 'Download CSV' }));
  expect(file.name).toBe('mapped_orders-march.csv');
  expect(file.text.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
    'Customer,Contact Email,Order Date,Total',
    '"Smith, Alice",alice@example.com,03/05/2024,1234.50',
    'Bob Jones,bob@example.com,12/31/2024,99.00',
    'Carla Díaz,carla@example.com,01/15/2025,1000.25',
    '',
  ]);

  // back to the mapping (step labels let you jump back) and save it
  await page.getByRole('button', { name: '3. Map Columns' }).click();
  await expect(page.getByText('4 of 4 columns mapped')).toBeVisible();
  await page.getByRole('button', { name: 'Save Mapping' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save Mapping Configuration' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Save Mapping' }).click();
  await expect(dialog.getByText('Please enter a name for the mapping')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Name' }).fill('  March orders  ');
  await dialog
    .getByRole('textbox', { name: 'Description (optional)' })
    .fill('Shop export to the order template');
  await dialog.getByRole('button', { name: 'Save Mapping' }).click();
  await expect(page.getByText('Mapping saved successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  // a free plan holds one saved mapping: the button now offers the upgrade
  await expect(page.getByRole('link', { name: 'Upgrade to Save More' })).toBeVisible();

  // /saved-mappings shows the card
  await page.goto('/saved-mappings');
  await expect(page.getByRole('heading', { name: 'Saved Mappings' })).toBeVisible();
  const card = page.getByTestId('saved-mapping-card');
  await expect(card).toHaveCount(1);
  await expect(card.getByText('March orders', { exact: true })).toBeVisible();
  await expect(card.getByText('Shop export to the order template')).toBeVisible();
  await expect(card.getByText('→ Customer')).toBeVisible();
  await expect(card.getByText('+1 more')).toBeVisible();

  // Use Mapping → the wizard at step 2 with the mapping loaded
  await card.getByRole('link', { name: 'Use Mapping' }).click();
  await expect(page).toHaveURL(/\/csv-mapper\?loadMapping=/);
  await expect(page.getByText('Mapping loaded')).toBeVisible();
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  const loaded = page.getByTestId('template-uploaded');
  await expect(loaded.getByText('March orders')).toBeVisible();
  await expect(loaded.getByText('4 columns detected')).toBeVisible();

  // next month's file goes straight to step 3 with the saved pairs and transforms in place
  await chooseFile(page, 'data', csvFile('orders-april.csv', DATA_CSV), { prompted: true });
  await expect(page.getByText('Step 3 of 4')).toBeVisible();
  await expect(page.getByText('4 of 4 columns mapped')).toBeVisible();
  await expectMapped(page, 'Customer', 'Name');
  await expectMapped(page, 'Total', 'Amount');
  await expect(page.getByRole('combobox', { name: 'Transform for Order Date' })).toHaveValue('date');
  await expect(preview.getByRole('row').nth(1)).toContainText('03/05/2024');
  await expect(page.getByRole('button', { name: 'Generate CSV' })).toBeEnabled();

  expect(errors).toEqual([]);
});

test('a data file over the free 1 MB limit opens File Too Large', async ({ page }) => {
  await signUpViaApi(page, newUser('big'));
  await page.goto('/csv-mapper');
  await chooseFile(page, 'template', csvFile('template.csv', 'id,value\r\n'), { prompted: true });
  await expect(page.getByText('Step 2 of 4')).toBeVisible();

  const row = 'x'.repeat(99) + '\n';
  const size = 1.5 * 1024 * 1024;
  const big = `id,value\n${row.repeat(Math.ceil(size / row.length))}`.slice(0, size);
  await chooseFile(page, 'data', csvFile('huge-export.csv', big), { prompted: true });

  const dialog = page.getByRole('dialog', { name: 'File Too Large' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('huge-export.csv is 1.50 MB, which exceeds your plan limit of 1MB.');
  await expect(dialog.getByText('Upgrade to Pro for:')).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Upgrade Plan' })).toHaveAttribute('href', '/profile');
  await dialog.getByRole('button', { name: 'Try Another File' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  await expect(
    page.getByTestId('data-dropzone').getByText('Drop your data CSV or Excel file here'),
  ).toBeVisible();
});

test('a data file with more rows than the plan allows opens the row-limit dialog; proceeding works', async ({
  page,
}) => {
  await signUpViaApi(page, newUser('rows'));
  await page.goto('/csv-mapper');
  await chooseFile(page, 'template', csvFile('template.csv', 'id,code\r\n'), { prompted: true });
  await expect(page.getByText('Step 2 of 4')).toBeVisible();

  const rows = Array.from({ length: 10_001 }, (_, i) => `${i + 1},c${i % 7}`);
  await chooseFile(page, 'data', csvFile('long-list.csv', ['id,code', ...rows].join('\n') + '\n'), {
    prompted: true,
  });

  const dialog = page.getByRole('dialog', { name: 'File Has Too Many Rows' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('long-list.csv has 10,001 rows. Your plan allows 10,000 rows per file.');
  await expect(dialog).toContainText('only the first 10,000 rows will be processed');
  await expect(dialog.getByRole('button', { name: 'Upload Different File' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Proceed with 10,000 Rows' }).click();
  await expect(dialog).toBeHidden();

  // accepted: step 3 with both columns suggested by name
  await expect(page.getByText('Step 3 of 4')).toBeVisible();
  await expect(page.getByText('2 of 2 columns mapped')).toBeVisible();
  await page.getByRole('button', { name: 'Accept all' }).click();
  await page.getByRole('button', { name: 'Generate CSV' }).click();
  await expect(page.getByText('Complete!')).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('#main').getByText('10,000 rows processed of 10,001 in the file')).toBeVisible();
  const limit = page.getByRole('dialog', { name: 'File Row Limit Exceeded' });
  await expect(limit).toBeVisible();
  await expect(limit).toContainText('Processed 10,000 of 10,001 rows due to plan limits.');
  await limit.getByRole('button', { name: 'Continue with the current plan' }).click();
  await expect(limit).toBeHidden();

  const file = await downloadCsv(page, page.getByRole('button', { name: 'Download CSV' }));
  const lines = file.text.replace(/^\uFEFF/, '').split('\r\n');
  expect(lines[0]).toBe('id,code');
  expect(lines.slice(1, -1)).toEqual(rows.slice(0, 10_000));
  expect(lines[lines.length - 1]).toBe('');
});

test('on a 375 px phone, step 3 maps through the per-column selects and generates', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signUpViaApi(page, newUser('phone'));
  await uploadBoth(page);

  await page.getByRole('button', { name: 'Clear suggestions' }).click();
  await expect(page.getByText('0 of 4 columns mapped')).toBeVisible();
  const pairs: [string, string][] = [
    ['Customer', 'Name'],
    ['Contact Email', 'Email'],
    ['Order Date', 'Date'],
    ['Total', 'Amount'],
  ];
  for (const [t, d] of pairs) {
    const select = page.getByRole('combobox', { name: `Data column for ${t}` });
    await expect(select).toHaveValue('');
    await expect(select.locator('option').first()).toHaveText('Choose a data column…');
    await select.selectOption(d);
    await expectMapped(page, t, d);
  }
  await expect(page.getByText('4 of 4 columns mapped')).toBeVisible();

  // nothing on the page is wider than the phone
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await generateCsv(page);
  await expect(page.locator('#main').getByText('3 rows processed')).toBeVisible();
  const file = await downloadCsv(page, page.getByRole('button', { name: 'Download CSV' }));
  expect(file.text.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
    'Customer,Contact Email,Order Date,Total',
    '"Smith, Alice",alice@example.com,2024-03-05,1234.5',
    'Bob Jones,bob@example.com,2024-12-31,99',
    'Carla Díaz,carla@example.com,2025-01-15,1000.25',
    '',
  ]);
});

test('a data file that is not UTF-8 says it was read as Windows-1252, and why', async ({ page }) => {
  await signUpViaApi(page, newUser('enc'));
  await page.goto('/csv-mapper');
  await chooseFile(page, 'template', csvFile('template.csv', 'Name,City\r\n'), { prompted: true });
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  // "Müller" and "Zürich" as a German Excel saves them: Windows-1252 bytes, invalid as UTF-8.
  const cp1252 = Buffer.from('Name,City\r\nM\xfcller,Z\xfcrich\r\n', 'latin1');
  await chooseFile(
    page,
    'data',
    { name: 'kunden.csv', mimeType: 'text/csv', buffer: cp1252 },
    { prompted: true },
  );
  // The wizard moves on to mapping with the names read right; the upload step says how they were read.
  await expect(page.getByText('Step 3 of 4')).toBeVisible();
  await expect(page.getByText('Müller')).toBeVisible();
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  await expect(page.getByTestId('data-encoding-note')).toHaveText(
    'Read as Windows-1252 because the file is not valid UTF-8.',
  );
  await expect(page.getByTestId('template-encoding-note')).toHaveCount(0);
});
