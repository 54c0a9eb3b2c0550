import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createMappingViaApi, newUser, signUpViaApi } from '../fixtures/helpers';
import { chooseFile, csvFile } from '../support/files';

// Issue 20: axe runs on every signed-in page — dashboard, the mapper at each of its four steps, saved
// mappings, profile — and finds nothing serious or critical. Also: no button's text overflows its box on
// the mapper's first step at 1280 px (the built-in template buttons did).

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

async function seriousViolations(page: Page, where: string): Promise<string[]> {
  await page.waitForLoadState('networkidle');
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  console.log(
    `axe ${where}: ${violations.length} violations (${violations.map((v) => `${v.id}:${v.impact}`).join(', ')}), ${bad.length} serious/critical`,
  );
  return bad.map(
    (v) =>
      `${where}: ${v.id} (${v.impact}) ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(' | ')}`,
  );
}

test('axe finds no serious or critical violations on any signed-in page', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUpViaApi(page, newUser('axe'));
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Ada!' })).toBeVisible();
  const report: string[] = [];
  report.push(...(await seriousViolations(page, '/dashboard')));

  await page.goto('/csv-mapper');
  await expect(page.getByText('Step 1 of 4')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Use / }).first()).toBeVisible();
  report.push(...(await seriousViolations(page, '/csv-mapper step 1')));

  // no button on step 1 has text wider than itself (the built-in template buttons overflowed)
  const overflowing = await page.evaluate(() =>
    [...document.querySelectorAll('#main button, #main a')]
      .filter((b) => b.scrollWidth > b.clientWidth + 1)
      .map((b) => b.textContent?.trim() ?? ''),
  );
  report.push(...overflowing.map((t) => `/csv-mapper step 1: the text of "${t}" overflows its box`));

  await chooseFile(page, 'template', csvFile('template.csv', 'Customer,Total\r\n'));
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  report.push(...(await seriousViolations(page, '/csv-mapper step 2')));

  await chooseFile(page, 'data', csvFile('data.csv', 'Customer,Total\r\nAlice,12.50\r\nBob,7.25\r\n'));
  await expect(page.getByText('Step 3 of 4')).toBeVisible();
  await expect(page.getByText('2 of 2 columns mapped')).toBeVisible();
  await expect(page.getByTestId('mapping-preview')).toBeVisible();
  report.push(...(await seriousViolations(page, '/csv-mapper step 3')));

  await page.getByRole('button', { name: 'Generate CSV' }).click();
  await expect(page.getByText('Complete!')).toBeVisible({ timeout: 15_000 });
  // with the output-format form open, explicit choices showing
  await page.getByRole('button', { name: 'Change output format' }).click();
  await page.getByText('Choose the format').click();
  await expect(page.getByRole('combobox', { name: 'Delimiter' })).toBeVisible();
  report.push(...(await seriousViolations(page, '/csv-mapper step 4')));

  await createMappingViaApi(page, 'Axe mapping');
  await page.goto('/saved-mappings');
  await expect(page.getByTestId('saved-mapping-card')).toHaveCount(1);
  report.push(...(await seriousViolations(page, '/saved-mappings')));

  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  report.push(...(await seriousViolations(page, '/profile')));

  expect(report).toEqual([]);
});
