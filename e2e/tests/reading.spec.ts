import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import fs from 'node:fs';
import path from 'node:path';
import { newUser, signUpViaApi } from '../fixtures/helpers';
import { chooseFile, downloadedCsv, generateCsv } from '../support/files';

// Issues 20 and 21, Browser (Chromium): an Excel workbook goes straight into the mapper (pick its second
// sheet, map, download the expected bytes), and the "Detected" panel changes how a CSV is read (delimiter,
// header row from the first lines) without uploading it again. Screenshots at 1280 and 375 px.

const SCREEN_DIR = path.resolve(__dirname, '../../test-output/reading-screens');
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const stepButton = (page: Page, n: number) =>
  page
    .getByRole('navigation', { name: 'Wizard steps' })
    .getByRole('button', { name: new RegExp(`^${n}\\. `) });

async function twoSheetWorkbook(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const summary = wb.addWorksheet('Summary');
  summary.addRow(['Quarter', 'Revenue']);
  summary.addRow(['Q1', 1200.5]);
  const products = wb.addWorksheet('Products');
  products.addRow(['SKU', 'Name', 'Price', 'In stock']);
  products.addRow(['A-1', 'Pen, blue', 1.1, true]);
  products.addRow(['B-2', 'Paper "A4"', 0.3, false]);
  products.addRow([
    'C-3',
    { richText: [{ text: 'Ink ' }, { font: { bold: true }, text: 'black' }] },
    { formula: 'C2*10', result: 11 },
    true,
  ]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const width of [1280, 375]) {
  test(`an .xlsx with two sheets: pick the second, map, download the expected CSV (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await signUpViaApi(page, newUser(`xlsx${width}`));
    await page.goto('/csv-mapper');
    await chooseFile(
      page,
      'template',
      {
        name: 'shop.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('SKU,Product,Price,Available\r\n'),
      },
      { prompted: true },
    );
    await expect(page.getByText('Step 2 of 4')).toBeVisible();
    await chooseFile(
      page,
      'data',
      { name: 'stock.xlsx', mimeType: XLSX, buffer: await twoSheetWorkbook() },
      { prompted: true },
    );
    // The first sheet is read and the wizard moves on; back on step 2 the panel offers the sheets.
    await expect(page.getByText('Step 3 of 4')).toBeVisible();
    await stepButton(page, 2).click();
    const panel = page.getByTestId('data-reading');
    const sheet = panel.getByTestId('data-read-sheet');
    await expect(sheet).toHaveValue('Summary');
    await expect(sheet.locator('option')).toHaveText(['Summary (2 rows)', 'Products (4 rows)']);
    await expect(panel.getByTestId('data-read-encoding')).toHaveCount(0);
    await sheet.selectOption('Products');
    await expect(panel.getByTestId('data-read-columns')).toHaveText('4');
    await expect(panel.getByTestId('data-read-rows')).toHaveText('3');
    await expect(panel.getByTestId('data-read-header-row')).toHaveText('Line 1');
    await expect(page.getByTestId('data-uploaded').getByText('In stock', { exact: true })).toBeVisible();
    await noSidewaysScroll(page);
    await panel.scrollIntoViewIfNeeded();
    fs.mkdirSync(SCREEN_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREEN_DIR, `xlsx-sheet-${width}.png`), fullPage: true });

    await stepButton(page, 3).click();
    await expect(page.getByText('Step 3 of 4')).toBeVisible();
    for (const [t, d] of [
      ['SKU', 'SKU'],
      ['Product', 'Name'],
      ['Price', 'Price'],
      ['Available', 'In stock'],
    ]) {
      await page.getByRole('combobox', { name: `Data column for ${t}` }).selectOption(d);
    }
    await expect(page.getByText('4 of 4 columns mapped')).toBeVisible();
    await generateCsv(page);
    const [dl] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const bytes = fs.readFileSync(await dl.path());
    expect(bytes.toString('utf8').replace(/^\uFEFF/, '')).toBe(
      'SKU,Product,Price,Available\r\nA-1,"Pen, blue",1.1,TRUE\r\nB-2,"Paper ""A4""",0.3,FALSE\r\nC-3,Ink black,11,TRUE\r\n',
    );
  });

  test(`the Detected panel re-reads a semicolon file with a two-line preamble (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await signUpViaApi(page, newUser(`read${width}`));
    await page.goto('/csv-mapper');
    await chooseFile(
      page,
      'template',
      {
        name: 'template.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('Date,Amount,Note\r\n'),
      },
      { prompted: true },
    );
    await expect(page.getByText('Step 2 of 4')).toBeVisible();
    const bank =
      'Kontoauszug\r\nZeitraum: März 2024\r\nDatum;Betrag;Notiz\r\n31.03.2024;12,50;Kaffee\r\n01.04.2024;7,25;Miete\r\n';
    await chooseFile(
      page,
      'data',
      { name: 'bank.csv', mimeType: 'text/csv', buffer: Buffer.from(bank) },
      { prompted: true },
    );
    await expect(page.getByText('Step 3 of 4')).toBeVisible();
    await stepButton(page, 2).click();
    const panel = page.getByTestId('data-reading');
    await expect(panel.getByTestId('data-read-delimiter')).toHaveValue(';');
    await expect(panel.getByTestId('data-read-encoding')).toHaveValue('utf-8');
    await expect(panel.getByTestId('data-read-header-row')).toHaveText('Line 3');
    await expect(panel.getByTestId('data-read-rows')).toHaveText('2');
    await expect(panel.getByTestId('data-line-3')).toHaveAttribute('aria-pressed', 'true');

    // Read with commas: the panel and the headers follow; back to semicolons.
    await panel.getByTestId('data-read-delimiter').selectOption(',');
    // only the rows split (at their decimal commas): the first row is read as the header
    await expect(panel.getByTestId('data-read-header-row')).toHaveText('Line 4');
    await expect(panel.getByTestId('data-read-columns')).toHaveText('2');
    await expect(page.getByTestId('data-uploaded')).toContainText('2 columns, 1 row detected');
    await panel.getByTestId('data-read-delimiter').selectOption(';');
    await expect(panel.getByTestId('data-read-columns')).toHaveText('3');

    // Choose the header row by clicking a line: line 2 gives one column named after the period.
    await panel.getByTestId('data-line-2').click();
    await expect(panel.getByTestId('data-read-header-row')).toHaveText('Line 2');
    await expect(panel.getByTestId('data-line-2')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('data-uploaded').locator('.chakra-badge')).toHaveText([
      'Zeitraum: März 2024',
    ]);
    await panel.getByTestId('data-line-3').click();
    await expect(panel.getByTestId('data-read-header-row')).toHaveText('Line 3');
    await expect(panel.getByTestId('data-read-rows')).toHaveText('2');
    // A choice the server cannot honour is explained in the panel.
    await panel.getByTestId('data-line-5').click();
    await expect(panel.getByTestId('data-read-error')).toContainText('no data rows below it');
    await expect(panel.getByTestId('data-read-header-row')).toHaveText('Line 3');
    await noSidewaysScroll(page);
    await panel.scrollIntoViewIfNeeded();
    fs.mkdirSync(SCREEN_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREEN_DIR, `reading-${width}.png`), fullPage: true });

    await stepButton(page, 3).click();
    // the suggestions carry the transforms the values suggest (issue 20); this test maps the raw values
    await page.getByRole('button', { name: 'Clear suggestions' }).click();
    for (const [t, d] of [
      ['Date', 'Datum'],
      ['Amount', 'Betrag'],
      ['Note', 'Notiz'],
    ]) {
      await page.getByRole('combobox', { name: `Data column for ${t}` }).selectOption(d);
    }
    await generateCsv(page);
    expect((await downloadedCsv(page)).toString('utf8').replace(/^\uFEFF/, '')).toBe(
      'Date,Amount,Note\r\n31.03.2024,"12,50",Kaffee\r\n01.04.2024,"7,25",Miete\r\n',
    );
  });
}
