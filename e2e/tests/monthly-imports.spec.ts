import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { apiPost, newUser, signUpViaApi } from '../fixtures/helpers';
import { chooseFile, csvFile, downloadedCsv, generateCsv } from '../support/files';

// Issue 30 in the browser: a saved mapping used month after month. Source drift — November's statement
// renamed "Amount" and added a column: the mapper says so before the run, fills in the adapted mapping and
// the download is right. Rows already exported — two overlapping statements through the same saved
// mapping: the second run names the rows an earlier run exported and keeps them marked (flag) or leaves
// them out of the download (skip), the mode asked once when the mapping was saved in the mapper.

const SHOTS = process.env.E2E_SCREENSHOTS;

const TEMPLATE = csvFile('ledger-template.csv', 'Booking Date,Payee,Value\r\n');

const OCTOBER = [
  'Date,Description,Amount,Balance,Reference',
  '29/10/2026,Coffee shop,-3.50,1496.50,TX-1001',
  '30/10/2026,Salary,2500.00,3996.50,TX-1002',
  '31/10/2026,Rent,-900.00,3096.50,TX-1003',
].join('\r\n');

const NOVEMBER = [
  'Date,Description,Amount (EUR),Balance,Reference,Category',
  '01/11/2026,Bakery,-4.20,3092.30,TX-1004,Food',
  '02/11/2026,Refund,12.99,3105.29,TX-1005,Shopping',
  '03/11/2026,Electricity,-61.05,3044.24,TX-1006,Utilities',
].join('\r\n');

const PAIRS = [
  {
    templateColumn: 'Booking Date',
    dataColumn: 'Date',
    transform: { kind: 'date', input: 'DD/MM/YYYY', output: 'YYYY-MM-DD' },
  },
  { templateColumn: 'Payee', dataColumn: 'Description' },
  { templateColumn: 'Value', dataColumn: 'Amount', transform: { kind: 'amount', decimals: 2 } },
];

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: path.join(SHOTS, `${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: path.join(SHOTS, `${name}-375.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
}

async function uploadBoth(page: Page, data: string, name: string) {
  await chooseFile(page, 'template', TEMPLATE, { prompted: true });
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  await chooseFile(page, 'data', csvFile(name, data));
  await expect(page.getByText('Step 3 of 4')).toBeVisible();
}

test("a renamed column is shown before the run, and the adapted mapping gives November's file", async ({
  page,
}) => {
  await signUpViaApi(page, newUser('drift'));
  await apiPost(page, '/api/mappings', {
    name: 'Bank to books',
    templateHeaders: ['Booking Date', 'Payee', 'Value'],
    dataHeaders: OCTOBER.split('\r\n')[0].split(','),
    mappings: PAIRS,
  });

  await page.goto('/csv-mapper');
  await uploadBoth(page, NOVEMBER, 'statement-november.csv');
  const offer = page.getByTestId('recognised-sources');
  await expect(offer.getByTestId('source-changes')).toContainText(
    "'Amount' is now 'Amount (EUR)'; a new column 'Category'",
  );
  await shot(page, 'drift-offer');

  await offer.getByRole('button', { name: /Use “Bank to books”/ }).click();
  const note = page.getByTestId('source-in-use');
  await expect(note).toContainText('“Bank to books” adapted to this file');
  await expect(note).toContainText("'Amount' is now 'Amount (EUR)'; a new column 'Category'.");
  await expect(page.getByText('3 of 3 columns mapped')).toBeVisible();
  await expect(
    page.locator('[data-testid="template-card"][data-column="Value"]').getByText('← Amount (EUR)'),
  ).toBeVisible();
  await shot(page, 'drift-adapted');

  await generateCsv(page);
  expect((await downloadedCsv(page)).toString('utf8')).toBe(
    'Booking Date,Payee,Value\r\n' +
      '2026-11-01,Bakery,-4.20\r\n' +
      '2026-11-02,Refund,12.99\r\n' +
      '2026-11-03,Electricity,-61.05\r\n',
  );
});

// Two statements that overlap by two days: the second repeats 30 and 31 October.
const STATEMENT_HEADER = 'Date,Description,Amount,Balance,Reference';
const LINES = {
  coffee: '2026-10-29,Coffee shop,-3.50,1496.50,TX-1001',
  salary: '2026-10-30,Salary,2500.00,3996.50,TX-1002',
  rent: '2026-10-31,Rent,-900.00,3096.50,TX-1003',
  bakery: '2026-11-01,Bakery,-4.20,3092.30,TX-1004',
  refund: '2026-11-02,Refund,12.99,3105.29,TX-1005',
};
const FIRST = [STATEMENT_HEADER, LINES.coffee, LINES.salary, LINES.rent].join('\r\n');
const SECOND = [STATEMENT_HEADER, LINES.salary, LINES.rent, LINES.bakery, LINES.refund].join('\r\n');
const LEDGER = csvFile('ledger.csv', 'Date,Description,Amount\r\n');
/** The ledger's header and a statement line as the ledger has it (the first three columns). */
const HEADER = 'Date,Description,Amount\r\n';
const row = (l: string) => `${l.split(',').slice(0, 3).join(',')}\r\n`;

async function statementStep3(page: Page, data: string, name: string) {
  await chooseFile(page, 'template', LEDGER, { prompted: true });
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  await chooseFile(page, 'data', csvFile(name, data));
  await expect(page.getByText('Step 3 of 4')).toBeVisible();
}

for (const mode of ['flag', 'skip'] as const) {
  test(`overlapping statements through one saved mapping: the second run ${mode === 'flag' ? 'marks' : 'leaves out'} the rows exported before`, async ({
    page,
  }) => {
    const user = newUser(`dup${mode}`);
    await signUpViaApi(page, user);
    const name = `Statements (${mode})`;
    await page.goto('/csv-mapper');
    await statementStep3(page, FIRST, 'statement-1.csv');
    // the suggested pairs (same names), saved as a mapping: the mapper asks once about rows exported before
    await expect(page.getByText('3 of 3 columns mapped')).toBeVisible();
    await page.getByRole('button', { name: 'Accept all' }).click();
    await page.getByRole('button', { name: 'Save Mapping' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save Mapping Configuration' });
    await dialog.getByLabel('Name').fill(name);
    const field = dialog.getByTestId('duplicates-field');
    await expect(field).toContainText('Rows exported before');
    await expect(field.getByRole('radio', { name: 'Flag them' })).toBeChecked();
    if (mode === 'skip') {
      await field.getByText('Skip them').click();
      await expect(field.getByRole('radio', { name: 'Skip them' })).toBeChecked();
      await shot(page, 'save-duplicates');
    }
    await dialog.getByRole('button', { name: 'Save Mapping' }).click();
    await expect(page.getByTestId('toast')).toContainText('Mapping saved successfully');

    // first run: everything is new
    await generateCsv(page);
    await expect(page.getByTestId('already-exported')).toHaveCount(0);
    expect((await downloadedCsv(page)).toString('utf8')).toBe(
      HEADER + row(LINES.coffee) + row(LINES.salary) + row(LINES.rent),
    );

    // second run, the recognised mapping used: 30 and 31 October were exported by the first
    await page.getByRole('button', { name: 'Process Another File' }).click();
    await statementStep3(page, SECOND, 'statement-2.csv');
    await page
      .getByTestId('recognised-sources')
      .getByRole('button', { name: /Use “Statements/ })
      .click();
    // The suggestions alone already map 3 of 3: wait for the saved mapping (its id brings the history).
    await expect(page.getByTestId('toast').filter({ hasText: 'Mapping loaded' })).toBeVisible();
    await expect(page.getByText('3 of 3 columns mapped')).toBeVisible();
    await generateCsv(page);
    const second = (await downloadedCsv(page)).toString('utf8');
    const notice = page.getByTestId('already-exported');
    await expect(notice).toContainText('2 rows of this file were exported before');
    await expect(notice).toContainText(
      new RegExp(`2 rows were exported on \\d{1,2} \\w{3} \\d{4} by ${user.username}`),
    );
    if (mode === 'flag') {
      await expect(notice).toContainText('They are in this file');
      expect(second).toBe(
        HEADER + row(LINES.salary) + row(LINES.rent) + row(LINES.bakery) + row(LINES.refund),
      );
      // the review lists the two rows as exported before
      await expect(page.getByTestId('review-slot')).toContainText('2 problems in 2 rows of 4');
    } else {
      await expect(notice).toContainText('They were left out of this file');
      expect(second).toBe(HEADER + row(LINES.bakery) + row(LINES.refund));
    }
    await shot(page, `second-run-${mode}`);

    // the saved mappings page lists both runs, newest first
    await page.goto('/saved-mappings');
    const card = page.getByTestId('saved-mapping-card').filter({ hasText: name });
    const runs = card.getByTestId('mapping-run');
    await expect(runs).toHaveCount(2);
    await expect(runs.nth(0)).toContainText(
      mode === 'flag'
        ? 'statement-2.csv: 4 rows written, 2 exported before (flagged)'
        : 'statement-2.csv: 2 rows written, 2 exported before (skipped)',
    );
    await expect(runs.nth(1)).toContainText('statement-1.csv: 3 rows written');
    if (mode === 'flag') await shot(page, 'saved-mappings-runs');
  });
}
