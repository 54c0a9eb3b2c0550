import { expect, test, type Locator, type Page } from '@playwright/test';
import path from 'node:path';
import { apiPost, newUser, signUpViaApi } from '../fixtures/helpers';
import { chooseFile, csvFile, downloadedCsv, generateCsv } from '../support/files';

// Issue 30 after saving: what a saved mapping's runs do with rows an earlier run exported, and which
// columns identify a row, are changed on the saved mappings page (PUT /api/mappings/:id) and the next run
// in the mapper follows them.

const SHOTS = process.env.SAVED_MAPPINGS_SHOTS;

const HEADER = 'Date,Description,Amount,Balance';
const LEDGER = csvFile('ledger.csv', 'Date,Description,Amount\r\n');
const file = (name: string, lines: string[]) => csvFile(name, [HEADER, ...lines].join('\r\n'));
const ledger = (lines: string[]) =>
  'Date,Description,Amount\r\n' + lines.map((l) => `${l.split(',').slice(0, 3).join(',')}\r\n`).join('');

const OCT_30 = '2026-10-30,Salary,2500.00,3996.50';
const OCT_31 = '2026-10-31,Rent,-900.00,3096.50';
const NOV_01 = '2026-11-01,Bakery,-4.20,3092.30';
const NOV_02 = '2026-11-02,Refund,12.99,3105.29';

async function saveMapping(page: Page, name: string) {
  await apiPost(page, '/api/mappings', {
    name,
    templateHeaders: ['Date', 'Description', 'Amount'],
    dataHeaders: HEADER.split(','),
    mappings: ['Date', 'Description', 'Amount'].map((c) => ({ templateColumn: c, dataColumn: c })),
  });
}

/** A run in the mapper with the recognised saved mapping; the downloaded file's text. */
async function runInMapper(page: Page, name: string, data: ReturnType<typeof csvFile>) {
  await page.goto('/csv-mapper');
  await chooseFile(page, 'template', LEDGER, { prompted: true });
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  await chooseFile(page, 'data', data);
  await expect(page.getByText('Step 3 of 4')).toBeVisible();
  await page
    .getByTestId('recognised-sources')
    .getByRole('button', { name: new RegExp(`Use “${name}”`) })
    .click();
  // The suggestions alone already map 3 of 3: the run must wait for the saved mapping itself (its id is what
  // brings the run history), or it can go out as a plain run.
  await expect(page.getByTestId('toast').filter({ hasText: 'Mapping loaded' })).toBeVisible();
  await expect(page.getByText('3 of 3 columns mapped')).toBeVisible();
  await generateCsv(page);
  return (await downloadedCsv(page)).toString('utf8');
}

async function openSettings(page: Page, name: string): Promise<Locator> {
  await page.goto('/saved-mappings');
  const card = page.getByTestId('saved-mapping-card').filter({ hasText: name });
  await card.getByRole('button', { name: /^Change what runs of/ }).click();
  return card.getByTestId('history-settings');
}

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const [width, height] of [
    [1280, 900],
    [375, 800],
  ]) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('changing a saved mapping from flag to skip leaves the rows exported before out of the next run', async ({
  page,
}) => {
  await signUpViaApi(page, newUser('dupmode'));
  const name = 'Statements';
  await saveMapping(page, name);

  const first = await runInMapper(page, name, file('statement-1.csv', [OCT_30, OCT_31]));
  expect(first).toBe(ledger([OCT_30, OCT_31]));

  const settings = await openSettings(page, name);
  const mode = settings.getByLabel('Rows exported before');
  await expect(mode).toHaveValue('flag');
  await expect(settings.getByRole('checkbox', { name: 'Whole row' })).toBeChecked();
  await mode.selectOption('skip');
  await expect(settings.getByTestId('duplicates-hint')).toHaveText(
    'Left out of the file; they do not count against your monthly rows.',
  );
  await shots(page, 'saved-mapping-settings-open');
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('toast')).toContainText('Mapping updated');
  await expect(settings.getByTestId('history-settings-summary')).toHaveText(
    'Rows exported before: skipped, matched on the whole row',
  );
  // saved, not only shown: a fresh page load reads it back
  await page.reload();
  await expect(
    page.getByTestId('saved-mapping-card').filter({ hasText: name }).getByTestId('history-settings-summary'),
  ).toHaveText('Rows exported before: skipped, matched on the whole row');
  await shots(page, 'saved-mappings');

  const second = await runInMapper(page, name, file('statement-2.csv', [OCT_30, OCT_31, NOV_01, NOV_02]));
  await expect(page.getByTestId('already-exported')).toContainText('They were left out of this file');
  expect(second).toBe(ledger([NOV_01, NOV_02]));
});

test('key columns chosen on the saved mappings page: a repeated row with another description is left out', async ({
  page,
}) => {
  await signUpViaApi(page, newUser('dupkeys'));
  const name = 'Card statements';
  await saveMapping(page, name);

  const settings = await openSettings(page, name);
  await settings.getByLabel('Rows exported before').selectOption('skip');
  // a person clicks the box's label (the input itself is visually hidden)
  await settings.getByText('Date', { exact: true }).click();
  await settings.getByText('Amount', { exact: true }).click();
  await expect(settings.getByRole('checkbox', { name: 'Date' })).toBeChecked();
  await expect(settings.getByRole('checkbox', { name: 'Whole row' })).not.toBeChecked();
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings.getByTestId('history-settings-summary')).toHaveText(
    'Rows exported before: skipped, matched on Date + Amount',
  );

  await runInMapper(page, name, file('card-1.csv', [OCT_30, OCT_31]));
  // the bank renamed the payee of a row it repeats: Date + Amount still say it is the same row
  const renamed = OCT_31.replace('Rent', 'RENT FLAT 2');
  const second = await runInMapper(page, name, file('card-2.csv', [renamed, NOV_01]));
  expect(second).toBe(ledger([NOV_01]));
});
