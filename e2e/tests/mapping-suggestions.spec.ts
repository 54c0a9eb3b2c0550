import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { apiPost, newUser, signUpViaApi, subscribeToBusinessViaApi } from '../fixtures/helpers';
import { chooseFile, csvFile } from '../support/files';

// Issue 20, mapping step: a suggested pair carries the transform the engine infers from the column's values
// (shown on the card, changeable, and applied in the preview), and the top three saved mappings that
// recognise the data file are offered, best first.

const SHOTS = process.env.E2E_SCREENSHOTS;

const TEMPLATE_HEADERS = ['Date', 'Description', 'Amount'];
const PAIRS = [
  { templateColumn: 'Date', dataColumn: 'Date' },
  { templateColumn: 'Description', dataColumn: 'Details' },
  { templateColumn: 'Amount', dataColumn: 'Amount' },
];

async function saveMapping(page: Page, name: string, dataHeaders: string[], mappings = PAIRS) {
  await apiPost(page, '/api/mappings', { name, templateHeaders: TEMPLATE_HEADERS, dataHeaders, mappings });
}

test('suggested pairs carry the inferred amount transform; the top three recognised mappings are offered', async ({
  page,
}) => {
  await signUpViaApi(page, newUser('sug'));
  await subscribeToBusinessViaApi(page); // room for four saved mappings
  const headers = ['Date', 'Details', 'Amount', 'Balance', 'Reference'];
  await saveMapping(page, 'Bank exact', headers); // score 1.00
  await saveMapping(page, 'Bank older export', headers.slice(0, 4)); // 0.80
  await saveMapping(page, 'Bank short', headers.slice(0, 3)); // 0.60
  await saveMapping(page, 'Bank later tie', ['Date', 'Amount', 'Balance'], [PAIRS[0], PAIRS[2]]); // 0.60, newer

  await page.goto('/csv-mapper');
  await chooseFile(page, 'template', csvFile('ledger.csv', `${TEMPLATE_HEADERS.join(',')}\r\n`));
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  const data = [
    headers.join(','),
    '2024-03-01,Coffee,(12.50),100.00,R1',
    '2024-03-02,Refund,£7.25 CR,107.25,R2',
    '2024-03-03,Lunch,£3.10,104.15,R3',
  ].join('\r\n');
  await chooseFile(page, 'data', csvFile('bank-march.csv', data));
  await expect(page.getByText('Step 3 of 4')).toBeVisible();

  // Amount was suggested from the name, with the transform its values call for: shown on the card
  const amountCard = page.locator('[data-testid="template-card"][data-column="Amount"]');
  await expect(amountCard.getByText('Suggested', { exact: true })).toBeVisible();
  const transform = page.getByRole('combobox', { name: 'Transform for Amount' });
  await expect(transform).toHaveValue('amount');
  // …and applied in the preview: "(12.50)" → -12.50, "£7.25 CR" → 7.25
  const preview = page.getByTestId('mapping-preview');
  await expect(preview.getByRole('row').nth(1)).toContainText('-12.50');
  await expect(preview.getByRole('row').nth(2)).toContainText('7.25');
  await expect(preview.getByRole('row').nth(2)).not.toContainText('CR');
  // changeable: no transform writes the raw text
  await transform.selectOption('No transform');
  await expect(preview.getByRole('row').nth(1)).toContainText('(12.50)');
  await transform.selectOption('Amount');
  await expect(preview.getByRole('row').nth(1)).toContainText('-12.50');

  // recognition: the three best saved mappings, best first; the newer of two equal ones is left out
  const offers = page.getByTestId('recognised-sources').getByRole('button');
  await expect(offers).toHaveText([
    'Use “Bank exact” (100% match)',
    'Use “Bank older export” (80% match)',
    'Use “Bank short” (60% match)',
  ]);
  if (SHOTS) {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'step3-suggestions-1280.png') });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: path.join(SHOTS, 'step3-suggestions-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });
  }
  await offers.nth(1).click();
  await expect(page.getByTestId('toast')).toContainText('Mapping loaded');
  await expect(page.getByTestId('recognised-sources')).toHaveCount(0);
  await expect(page.getByText('3 of 3 columns mapped')).toBeVisible();
  await expect(amountCard.getByText('Suggested', { exact: true })).toHaveCount(0);
  await expect(
    page.locator('[data-testid="template-card"][data-column="Description"]').getByText('← Details'),
  ).toBeVisible();
});

// Issue 27: step 3 is pre-filled by POST /api/mappings/suggest. Each suggested pair shows its reason, a
// combine and a "first non-empty" suggestion show as such, a column nothing fits can be left empty from the
// column menu, and once every column is mapped or left empty the file is generated.
test('server suggestions with reasons, a combine, a first-non-empty and a column left empty', async ({
  page,
}) => {
  await signUpViaApi(page, newUser('sug27'));
  await page.goto('/csv-mapper');
  await chooseFile(page, 'template', csvFile('contacts-template.csv', 'Name,Email,Phone,Notes\r\n'));
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  const data = [
    'First Name,Last Name,E-mail,Mobile Phone,Home Phone',
    'Ada,Lovelace,ada@example.com,,020 7946 0000',
    'Grace,Hopper,grace@example.com,07700 900123,',
  ].join('\r\n');
  await chooseFile(page, 'data', csvFile('contacts.csv', data));
  await expect(page.getByText('Step 3 of 4')).toBeVisible();

  const card = (c: string) => page.locator(`[data-testid="template-card"][data-column="${c}"]`);
  // the combine shows its pattern and transform; the phones their order; each with the server's reason
  await expect(card('Name').getByText('← {First Name} {Last Name}')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Transform for Name' })).toHaveValue('combine');
  await expect(
    card('Phone').getByText(/← First of: (Mobile Phone, Home Phone|Home Phone, Mobile Phone)/),
  ).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Transform for Phone' })).toHaveValue('coalesce');
  await expect(card('Email').getByText('← E-mail')).toBeVisible();
  for (const c of ['Name', 'Email', 'Phone']) {
    await expect(card(c).getByText('Suggested', { exact: true })).toBeVisible();
    await expect(card(c).getByTestId('suggestion-reason')).not.toBeEmpty();
  }
  // Notes: nothing fits, and Generate waits for it
  await expect(card('Notes').getByText('Required', { exact: true })).toBeVisible();
  await expect(page.getByText('3 of 4 columns mapped')).toBeVisible();
  const generate = page.getByRole('button', { name: 'Generate CSV' });
  await expect(generate).toBeDisabled();

  // "Leave empty" from the column menu
  await page.getByRole('combobox', { name: 'Data column for Notes' }).selectOption({ label: 'Leave empty' });
  await expect(card('Notes').getByText('Left empty', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('4 of 4 columns mapped')).toBeVisible();
  // the preview shows what will be written
  const preview = page.getByTestId('mapping-preview');
  await expect(preview.getByRole('row').nth(1)).toContainText('Ada Lovelace');
  await expect(preview.getByRole('row').nth(1)).toContainText('020 7946 0000');

  if (SHOTS) {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'step3-server-suggestions-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(card('Name').getByTestId('suggestion-reason')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(SHOTS, 'step3-server-suggestions-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });
  }

  await expect(generate).toBeEnabled();
  await generate.click();
  await expect(page.getByText('Complete!')).toBeVisible({ timeout: 15_000 });
  const [dl] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  const text = fs.readFileSync(await dl.path(), 'utf8').replace(/^\uFEFF/, '');
  expect(text).toBe(
    'Name,Email,Phone,Notes\r\n' +
      'Ada Lovelace,ada@example.com,020 7946 0000,\r\n' +
      'Grace Hopper,grace@example.com,07700 900123,\r\n',
  );
});
