import { expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';

// Choosing files in the wizard's drop zones the way a person does: Choose File → the browser's file chooser.

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A CSV file to choose: text is written as UTF-8, bytes are sent as they are. */
export function csvFile(name: string, content: string | Buffer): UploadFile {
  return {
    name,
    mimeType: 'text/csv',
    buffer: Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'),
  };
}

/**
 * Choose File on the template or data drop zone, then the file(s) in the chooser. With `prompted`, first waits
 * for the zone's "Drop your … file here" prompt (the zone is empty and ready).
 */
export async function chooseFile(
  page: Page,
  kind: 'template' | 'data',
  files: UploadFile | UploadFile[],
  { prompted = false } = {},
): Promise<void> {
  const zone = page.getByTestId(`${kind}-dropzone`);
  if (prompted) await expect(zone.getByText(`Drop your ${kind} CSV or Excel file here`)).toBeVisible();
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    zone.getByRole('button', { name: 'Choose File' }).click(),
  ]);
  await chooser.setFiles(files);
}

/** Step 4: Generate CSV, then the run's "Complete!" (a sync run of a small file). */
export async function generateCsv(page: Page): Promise<void> {
  const generate = page.getByRole('button', { name: 'Generate CSV' });
  await generate.scrollIntoViewIfNeeded();
  await generate.click();
  await expect(page.getByText('Complete!')).toBeVisible({ timeout: 15_000 });
}

/** Download CSV on the result, and the bytes of the file the browser saved. */
export async function downloadedCsv(page: Page): Promise<Buffer> {
  const [dl] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  return readFileSync(await dl.path());
}

/**
 * A products file mapped onto a Title, Variant Price template (Title ← Title, Variant Price ← Price as an
 * amount) and generated, waiting for "Complete!": for a Business user and a file over the sync row limit,
 * a background job the review then pages through.
 */
export async function mapProductsAndGenerate(page: Page, dataName: string, data: Buffer): Promise<void> {
  await page.goto('/csv-mapper');
  await chooseFile(
    page,
    'template',
    csvFile('products-template.csv', Buffer.from('Title,Variant Price\r\n')),
  );
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  await chooseFile(page, 'data', csvFile(dataName, data));
  await expect(page.getByText('Step 3 of 4')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('combobox', { name: 'Data column for Title' }).selectOption('Title');
  await page.getByRole('combobox', { name: 'Data column for Variant Price' }).selectOption('Price');
  await page.getByRole('combobox', { name: 'Transform for Variant Price' }).selectOption('amount');
  await page.getByRole('button', { name: 'Generate CSV' }).click();
  await expect(page.getByText('Complete!')).toBeVisible({ timeout: 180_000 });
}
