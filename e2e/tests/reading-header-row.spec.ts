import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { newUser, signUpViaApi } from '../fixtures/helpers';
import { chooseFile, csvFile, downloadedCsv, generateCsv } from '../support/files';

// Issue 26, Browser (Chromium): the Detected panel's header-row choice. A headerless bank file is read
// with "No header row" (chosen from the keyboard) and the download keeps its first transaction; a header
// below a 12-line preamble is chosen from the scrolling list of the first lines, where the line detection
// picked is marked "detected". Screenshots at 1280 and 375 px.

const SCREEN_DIR = path.resolve(__dirname, '../../test-output/reading-screens');

const HEADERLESS =
  '01/31/2024,-3.50,COFFEE SHOP\r\n02/01/2024,2000.00,PAYROLL ACME\r\n02/02/2024,-45.10,GROCER\r\n';

const PREAMBLE = [
  'Umsatzanzeige;Datei erstellt am: 25.02.2024 14:03',
  'IBAN;DE12 5001 0517 0648 4898 90',
  'Kontoname;Girokonto',
  'Bank;ING',
  'Kunde;Erika Mustermann',
  'Zeitraum;01.01.2024 - 31.01.2024',
  'Saldo;1.234,56;EUR',
  'Sortierung;Datum absteigend',
  'In der CSV-Datei finden Sie alle bereits gebuchten Umsätze.',
  'Die vorgemerkten Umsätze werden nicht aufgenommen.',
  'Stand;25.02.2024',
  'Konto;Girokonto 0648489890',
];
const ING = `${PREAMBLE.join('\n')}\nBuchung;Verwendungszweck;Betrag\n31.01.2024;Miete Januar;-850,00\n15.01.2024;Gehalt;2.100,00\n02.01.2024;Bäckerei;-4,20\n`;

/** Uploads the data file and answers the header row the server detected (from the upload's answer). */
async function uploadData(page: Page, name: string, content: string): Promise<number> {
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/upload') && r.request().method() === 'POST'),
    chooseFile(page, 'data', csvFile(name, content), { prompted: true }),
  ]);
  return ((await answer.json()) as { headerRow: number }).headerRow;
}

const stepButton = (page: Page, n: number) =>
  page
    .getByRole('navigation', { name: 'Wizard steps' })
    .getByRole('button', { name: new RegExp(`^${n}\\. `) });

async function start(page: Page, width: number, who: string, template: string) {
  await page.setViewportSize({ width, height: 900 });
  await signUpViaApi(page, newUser(`${who}${width}`));
  await page.goto('/csv-mapper');
  await chooseFile(page, 'template', csvFile('template.csv', template), { prompted: true });
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** axe on the Detected panel: nothing serious or critical (the signed-in-a11y suite's tags). */
async function accessible(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .include('[data-testid="data-reading"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([]);
}

async function screenshot(page: Page, name: string) {
  await page.getByTestId('data-reading').scrollIntoViewIfNeeded();
  fs.mkdirSync(SCREEN_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREEN_DIR, name), fullPage: true });
}

for (const width of [1280, 375]) {
  test(`"No header row" reads a headerless bank file, chosen from the keyboard; the first transaction is kept (${width} px)`, async ({
    page,
  }) => {
    await start(page, width, 'nohdr', 'Date,Amount,Description\r\n');
    const detected = await uploadData(page, 'wells.csv', HEADERLESS);
    await expect(page.getByText('Step 3 of 4')).toBeVisible();
    await stepButton(page, 2).click();
    const panel = page.getByTestId('data-reading');
    // Start from a header on line 1 (the first transaction as column names), whatever was detected.
    if (detected !== 1) await panel.getByTestId('data-line-1').click();
    await expect(panel.getByTestId('data-read-header-row')).toHaveText('Line 1');
    await expect(panel.getByTestId('data-read-rows')).toHaveText('2');
    // The marks say which line is in use and which one detection picked.
    await expect(panel.getByTestId('data-line-1')).toContainText('header');
    const detectedChoice = panel.getByTestId(detected === 0 ? 'data-no-header-row' : `data-line-${detected}`);
    await expect(detectedChoice).toContainText('detected');
    await expect(panel.getByTestId('data-header-rows').getByText('detected', { exact: true })).toHaveCount(1);

    // Keyboard only: Tab reaches the list at the line in use; Home moves to "No header row"; Enter chooses.
    await panel.getByTestId('data-read-delimiter').focus();
    await page.keyboard.press('Tab');
    await expect(panel.getByTestId('data-line-1')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(panel.getByTestId('data-line-2')).toBeFocused();
    await page.keyboard.press('Home');
    const none = panel.getByTestId('data-no-header-row');
    await expect(none).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(panel.getByTestId('data-read-header-row')).toHaveText('None');
    await expect(none).toHaveAttribute('aria-pressed', 'true');
    await expect(none).toContainText('in use');
    await expect(none).toBeFocused();
    await expect(panel.getByTestId('data-read-rows')).toHaveText('3');
    await expect(panel.getByTestId('data-read-columns')).toHaveText('3');
    await expect(page.getByTestId('data-uploaded').locator('.chakra-badge')).toHaveText([
      'Column 1',
      'Column 2',
      'Column 3',
    ]);
    await expect(page.getByTestId('data-uploaded')).toContainText('3 columns, 3 rows detected');
    await noSidewaysScroll(page);
    await accessible(page);
    await screenshot(page, `no-header-row-${width}.png`);

    await stepButton(page, 3).click();
    const clear = page.getByRole('button', { name: 'Clear suggestions' });
    if (await clear.isVisible()) await clear.click();
    for (const [t, d] of [
      ['Date', 'Column 1'],
      ['Amount', 'Column 2'],
      ['Description', 'Column 3'],
    ]) {
      await page.getByRole('combobox', { name: `Data column for ${t}` }).selectOption(d);
    }
    await generateCsv(page);
    expect((await downloadedCsv(page)).toString('utf8').replace(/^\uFEFF/, '')).toBe(
      `Date,Amount,Description\r\n${HEADERLESS}`,
    );
  });

  test(`a header on record 13, below 12 lines of account details, is chosen from the scrolling list (${width} px)`, async ({
    page,
  }) => {
    await start(page, width, 'rec13', 'Datum,Text,Betrag\r\n');
    const detected = await uploadData(page, 'ing.csv', ING);
    await expect(page.getByText('Step 3 of 4')).toBeVisible();
    await stepButton(page, 2).click();
    const panel = page.getByTestId('data-reading');
    const list = panel.getByTestId('data-header-rows');
    // Every record of the file is offered (the picker once stopped at 10), in a list that scrolls by itself.
    await expect(list.getByRole('button')).toHaveCount(17); // "No header row" + 16 records
    expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    const detectedChoice = panel.getByTestId(detected === 0 ? 'data-no-header-row' : `data-line-${detected}`);
    await expect(detectedChoice).toContainText('detected');

    // Start from line 1, then pick line 13 further down the list.
    if (detected !== 1) await panel.getByTestId('data-line-1').click();
    await expect(panel.getByTestId('data-read-header-row')).toHaveText('Line 1');
    const line13 = panel.getByTestId('data-line-13');
    await expect(line13).toContainText('Buchung · Verwendungszweck · Betrag');
    await line13.click();
    await expect(panel.getByTestId('data-read-header-row')).toHaveText('Line 13');
    await expect(line13).toHaveAttribute('aria-pressed', 'true');
    await expect(panel.getByTestId('data-read-rows')).toHaveText('3');
    await expect(panel.getByTestId('data-read-delimiter')).toHaveValue(';');
    await expect(page.getByTestId('data-uploaded').locator('.chakra-badge')).toHaveText([
      'Buchung',
      'Verwendungszweck',
      'Betrag',
    ]);
    // The line in use stays in view inside the list.
    const inView = await line13.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const frame = (el.closest('ol') as HTMLElement).getBoundingClientRect();
      return box.top >= frame.top && box.bottom <= frame.bottom;
    });
    expect(inView).toBe(true);
    await noSidewaysScroll(page);
    await accessible(page);
    await screenshot(page, `header-row-13-${width}.png`);
  });
}
