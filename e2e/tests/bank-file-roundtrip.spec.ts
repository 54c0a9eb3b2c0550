import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import { newUser, signUpViaApi } from '../fixtures/helpers';
import { chooseFile, downloadedCsv, generateCsv } from '../support/files';

// Issue 20's browser test: a Windows-1252, semicolon bank export with a two-line preamble. The person fixes
// the header row in the "Detected" panel (nothing is uploaded again), accepts the suggested pairs with the
// Amount transform the values call for, and downloads with "Match the template" — the bytes are those of a
// Windows-1252, semicolon, CRLF file like the template.

const stepButton = (page: Page, n: number) =>
  page
    .getByRole('navigation', { name: 'Wizard steps' })
    .getByRole('button', { name: new RegExp(`^${n}\\. `) });

const cp1252 = (s: string) => Buffer.from(s, 'latin1');

test('cp1252 ; bank file with a preamble: the header row found below it, the amount transform accepted, the template matched', async ({
  page,
}) => {
  await signUpViaApi(page, newUser('bank'));
  await page.goto('/csv-mapper');
  // the accounting import's template: Windows-1252 ("ä"), semicolons, CRLF
  await chooseFile(page, 'template', {
    name: 'buchungen-vorlage.csv',
    mimeType: 'text/csv',
    buffer: cp1252('Buchungstag;Empfänger;Betrag\r\n'),
  });
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  // the bank's export: two preamble lines that look like a header too
  const bank = cp1252(
    [
      'Kontoauszug;Girokonto;EUR',
      'Zeitraum;01.03.2024;31.03.2024',
      'Buchungstag;Empfänger;Betrag',
      '01.03.2024;Café Müller;(12,50)',
      '02.03.2024;Gebühr Rückbuchung;7,25 CR',
      '03.03.2024;Bäckerei;3,10',
      '',
    ].join('\r\n'),
  );
  await chooseFile(page, 'data', { name: 'kontoauszug-maerz.csv', mimeType: 'text/csv', buffer: bank });
  await expect(page.getByText('Step 3 of 4')).toBeVisible();

  // step 2's Detected panel: the header row is found below the two preamble lines
  await stepButton(page, 2).click();
  const panel = page.getByTestId('data-reading');
  await expect(panel.getByTestId('data-read-delimiter')).toHaveValue(';');
  await expect(panel.getByTestId('data-read-encoding')).toHaveValue('windows-1252');
  // the preamble lines have three ;-fields like the rows, but the rows below don't read like them
  await expect(panel.getByTestId('data-read-header-row')).toHaveText('Line 3');
  await expect(panel.getByTestId('data-line-3')).toHaveAttribute('aria-pressed', 'true');
  await expect(panel.getByTestId('data-read-rows')).toHaveText('3');

  // step 3: the pairs are suggested from the names; Betrag carries the Amount transform its values need
  await stepButton(page, 3).click();
  await expect(page.getByText('3 of 3 columns mapped')).toBeVisible();
  const betrag = page.locator('[data-testid="template-card"][data-column="Betrag"]');
  await expect(betrag.getByText('Suggested', { exact: true })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Transform for Betrag' })).toHaveValue('amount');
  const preview = page.getByTestId('mapping-preview');
  await expect(preview.getByRole('row').nth(1)).toContainText('-12.50');
  await page.getByRole('button', { name: 'Accept all' }).click();
  await expect(betrag.getByText('Suggested', { exact: true })).toHaveCount(0);

  // step 4 with the default "Match the template"
  await generateCsv(page);
  const applied = page.getByTestId('applied-options');
  await expect(applied).toContainText('Matches the template');
  await expect(applied).toContainText('Semicolon (;)');
  await expect(applied).toContainText('Windows-1252');
  const amount = page.getByTestId('column-totals').locator('tr[data-column="Betrag"]');
  await expect(amount.getByRole('cell').nth(2)).toHaveText('-2.15');
  await expect(amount.getByRole('cell').nth(3)).toHaveText('-2.15');
  await expect(amount.getByText('Sums agree')).toBeVisible();

  const [dl] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(fs.readFileSync(await dl.path())).toEqual(
    cp1252(
      'Buchungstag;Empfänger;Betrag\r\n' +
        '2024-03-01;Café Müller;-12.50\r\n' +
        '2024-03-02;Gebühr Rückbuchung;7.25\r\n' +
        '2024-03-03;Bäckerei;3.10\r\n',
    ),
  );
});

test('dates that could be day- or month-first: the preview and the result say how they were read, and the card changes it', async ({
  page,
}) => {
  await signUpViaApi(page, newUser('dmy'));
  await page.goto('/csv-mapper');
  await chooseFile(page, 'template', {
    name: 'ledger-template.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Date,Description,Amount\r\n'),
  });
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  // every day is 12 or less: nothing in the column tells 1 November from 11 January
  await chooseFile(page, 'data', {
    name: 'statement-november.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      'Date,Description,Amount\r\n01/11/2026,Coffee,-12.50\r\n02/11/2026,Refund,7.25\r\n12/11/2026,Rent,"-1,250"\r\n',
    ),
  });
  await expect(page.getByText('Step 3 of 4')).toBeVisible();
  await page.getByRole('button', { name: 'Accept all' }).click();

  // the preview names the guess as a note on the column, not as a value that could not be read
  const notes = page.getByTestId('column-notes');
  await expect(notes).toContainText(
    'Date: Every date in the column could be day-first or month-first; read as month-first (MM/DD)',
  );
  await expect(page.getByText(/could not be read/)).toHaveCount(0);
  const preview = page.getByTestId('mapping-preview');
  await expect(preview.getByRole('row').nth(1)).toContainText('2026-01-11');
  await expect(preview.locator('[data-warning="true"]')).toHaveCount(0);

  await generateCsv(page);
  await expect(page.getByTestId('column-notes')).toContainText('How columns were read');
  await expect(page.getByTestId('column-notes')).toContainText('read as month-first (MM/DD)');
  await expect(page.getByTestId('result-warnings')).toHaveCount(0);

  // back on step 3, the Date card says the dates are day-first; the note goes and the dates change
  await stepButton(page, 3).click();
  const read = page.getByRole('combobox', { name: 'How dates are read for Date' });
  await expect(read).toHaveValue('auto');
  await read.selectOption('DD/MM/YYYY');
  await expect(preview.getByRole('row').nth(1)).toContainText('2026-11-01');
  await expect(page.getByTestId('column-notes')).toHaveCount(0);

  // the Amount card's decimal separator: detected as a point ("-1,250" is -1250); a comma makes it -1.25
  await page.getByRole('combobox', { name: 'Transform for Amount' }).selectOption('amount');
  const separator = page.getByRole('combobox', { name: 'Decimal separator for Amount' });
  await expect(separator).toHaveValue('auto');
  await expect(preview.getByRole('row').nth(3)).toContainText('-1250.00');
  await separator.selectOption(',');
  await expect(preview.getByRole('row').nth(3)).toContainText('-1.25');
  await separator.selectOption('auto');
  await expect(preview.getByRole('row').nth(3)).toContainText('-1250.00');

  await generateCsv(page);
  await expect(page.getByTestId('column-notes')).toHaveCount(0);
  expect((await downloadedCsv(page)).toString('utf8')).toBe(
    'Date,Description,Amount\r\n2026-11-01,Coffee,-12.50\r\n2026-11-02,Refund,7.25\r\n2026-11-12,Rent,-1250.00\r\n',
  );
});

test('ING NL export: the Amount card takes its sign from "Af Bij" as inferred, and "Flip the sign" flips it', async ({
  page,
}) => {
  await signUpViaApi(page, newUser('afbij'));
  await page.goto('/csv-mapper');
  await chooseFile(page, 'template', {
    name: 'boekhouding.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Datum;Naam / Omschrijving;Bedrag (EUR)\r\n'),
  });
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  // ING Netherlands: the amount is unsigned, "Af" (money out) or "Bij" (money in) says which way it went
  await chooseFile(page, 'data', {
    name: 'NL12INGB0001234567_01-01-2024_31-01-2024.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      '"Datum";"Naam / Omschrijving";"Af Bij";"Bedrag (EUR)"\r\n' +
        '"20240102";"Albert Heijn 1234";"Af";"12,50"\r\n' +
        '"20240103";"Werkgever BV salaris";"Bij";"2.500,00"\r\n' +
        '"20240105";"Verhuurder huur";"Af";"950,00"\r\n',
    ),
  });
  await expect(page.getByText('Step 3 of 4')).toBeVisible();
  await page.getByRole('button', { name: 'Accept all' }).click();

  // the card shows the inferred sign column and its money-out value; the preview has the signs
  const card = page.locator('[data-testid="template-card"][data-column="Bedrag (EUR)"]');
  await expect(page.getByRole('combobox', { name: 'Transform for Bedrag (EUR)' })).toHaveValue('amount');
  await expect(page.getByRole('combobox', { name: 'Sign for Bedrag (EUR)' })).toHaveValue('Af Bij');
  const out = page.getByRole('textbox', { name: 'Values meaning money out for Bedrag (EUR)' });
  await expect(out).toHaveValue('Af');
  const preview = page.getByTestId('mapping-preview');
  await expect(preview.getByRole('row').nth(1)).toContainText('-12.50');
  await expect(preview.getByRole('row').nth(2)).toContainText('2500.00');
  // in the middle of the window: the sticky "Generate CSV" bar covers the bottom of the board
  await card.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await card.screenshot({ path: 'test-output/e2e/amount-card-sign-1280.png' });

  // "Flip the sign": money out becomes positive, money in negative
  await card.getByText('Flip the sign').click();
  await expect(preview.getByRole('row').nth(1)).toContainText('12.50');
  await expect(preview.getByRole('row').nth(1)).not.toContainText('-12.50');
  await expect(preview.getByRole('row').nth(2)).toContainText('-2500.00');
  await card.getByText('Flip the sign').click();

  // another money-out value typed by hand: none of the rows are "Uit", so every amount is money in
  await out.fill('Uit');
  await expect(preview.getByRole('row').nth(1)).toContainText('12.50');
  await expect(preview.getByRole('row').nth(1)).not.toContainText('-12.50');
  await out.fill('Af');
  await expect(preview.getByRole('row').nth(1)).toContainText('-12.50');

  await generateCsv(page);
  expect((await downloadedCsv(page)).toString('utf8')).toBe(
    'Datum;Naam / Omschrijving;Bedrag (EUR)\r\n' +
      '2024-01-02;Albert Heijn 1234;-12.50\r\n' +
      '2024-01-03;Werkgever BV salaris;2500.00\r\n' +
      '2024-01-05;Verhuurder huur;-950.00\r\n',
  );
});
