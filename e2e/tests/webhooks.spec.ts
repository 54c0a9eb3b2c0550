import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { newUser, signUpViaApi, subscribeToBusinessViaApi } from '../fixtures/helpers';

// Issue 15, Browser (Chromium): a Business user manages a webhook endpoint from Profile → Webhooks against a
// real receiver on 127.0.0.1 (e2e/run.js allows that port in the worker's SSRF guard): the secret shown
// once verifies the delivery the receiver got (standardwebhooks), the log shows it with the receiver's
// answer, Resend repeats the same webhook-id, the event filter persists, and a rotated secret signs
// alongside the old one.

const SCREEN_DIR = path.resolve(__dirname, '../../test-output/webhooks-screens');
const RECEIVER_BODY = '{"ok":true}';

interface Received {
  headers: Record<string, string>;
  body: string;
}

function startReceiver(port: number): Promise<{ server: http.Server; received: Received[] }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(RECEIVER_BODY);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve({ server, received }));
  });
}

const port = Number(process.env.E2E_WEBHOOK_PORT);
let receiver: { server: http.Server; received: Received[] };

test.beforeAll(async () => {
  if (!port) throw new Error('E2E_WEBHOOK_PORT is not set: run the tests through node e2e/run.js');
  receiver = await startReceiver(port);
});

test.afterAll(async () => {
  await new Promise((r) => receiver?.server.close(r));
});

async function receivedCount(n: number): Promise<void> {
  await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(n);
}

function verify(secret: string, msg: Received): { type: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(msg.body, msg.headers) as { type: string; data: Record<string, unknown> };
}

/** The whole page (from the top, so the sticky header sits where a person sees it), or just `part`. */
async function screenshot(page: Page, name: string, part?: Locator): Promise<void> {
  fs.mkdirSync(SCREEN_DIR, { recursive: true });
  const file = path.join(SCREEN_DIR, `${name}.png`);
  // the sticky header would otherwise cover the top of a part scrolled under it
  if (part)
    return void (await part.screenshot({ path: file, style: 'header { position: static !important; }' }));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage: true });
}

/** Nothing on the page may stick out sideways (the log table scrolls inside its own box). */
async function expectNoSidewaysOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page is wider than the screen').toBeLessThanOrEqual(0);
}

const rows = (endpoint: Locator) => endpoint.getByTestId('delivery-row');

/** Clicks a checkbox's label, as a person does (the real input is visually hidden under the box). */
const toggle = (scope: Locator, event: string) => scope.getByText(event, { exact: true }).click();

test('a Business user adds an endpoint, sends a verified test event, resends it, filters events and rotates the secret', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUpViaApi(page, newUser('hook'));
  await subscribeToBusinessViaApi(page);

  await page.goto('/profile');
  const section = page.locator('[aria-labelledby="webhooks-title"]');
  await expect(section.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
  await expect(section.getByText('No endpoints yet.')).toBeVisible();

  // add the endpoint: every event is chosen by default; the secret is shown once
  const url = `http://127.0.0.1:${port}/hooks`;
  const form = section.getByRole('form', { name: 'Add a webhook endpoint' });
  for (const ev of ['job.completed', 'job.failed', 'job.cancelled', 'batch.completed'])
    await expect(form.getByRole('checkbox', { name: ev })).toBeChecked();
  await form.getByRole('textbox', { name: 'Endpoint URL' }).fill(url);
  await form.getByRole('button', { name: 'Add endpoint' }).click();
  const secretBox = section.getByTestId('webhook-secret');
  await expect(secretBox).toHaveText(/^whsec_/);
  const secret = (await secretBox.textContent())!.trim();
  await expect(section.getByText('Copy it now: it will not be shown again.')).toBeVisible();
  await expect(section.getByRole('button', { name: 'Copy signing secret' })).toBeVisible();

  const endpoint = section.getByRole('listitem', { name: url });
  await expect(endpoint.getByRole('heading', { name: url })).toBeVisible();
  await expect(endpoint.getByText('No deliveries yet.')).toBeVisible();

  // send a test event: it shows up in the log without a reload, as succeeded with the receiver's answer
  await endpoint.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByText('Test event sent')).toBeVisible();
  await expect(rows(endpoint)).toHaveCount(1, { timeout: 15_000 });
  const first = rows(endpoint).first();
  await expect(first.getByRole('cell').nth(1)).toHaveText('test');
  await expect(first.getByRole('cell').nth(2)).toHaveText('1');
  await expect(first.getByRole('cell').nth(3)).toHaveText('200');
  await expect(first.getByRole('cell').nth(4)).toHaveText(/^\d+ ms$/);
  await expect(first.getByText('succeeded', { exact: true })).toBeVisible();

  // the receiver got exactly one request, signed with the secret shown on screen
  await receivedCount(1);
  const [testMsg] = receiver.received;
  const payload = verify(secret, testMsg);
  expect(payload.type).toBe('test');
  expect(payload.data).toEqual({ message: 'Test event from CSV Mapper' });
  expect(() => verify(`whsec_${Buffer.alloc(24, 1).toString('base64')}`, testMsg)).toThrow();

  // the response snippet opens under the row, in a monospace block
  await first.getByRole('button', { name: /^Show response of test attempt 1/ }).click();
  const snippet = endpoint.getByTestId('delivery-response');
  await expect(snippet).toHaveText(RECEIVER_BODY);
  expect(await snippet.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/mono/i);
  await expect(first.getByRole('button', { name: /^Hide response/ })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  // wide screens: the whole row, Resend included, fits without scrolling the log sideways
  const logBox = endpoint.getByRole('region', { name: 'Delivery log' });
  expect(await logBox.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await screenshot(page, 'profile-1280');
  await screenshot(page, 'webhooks-section-1280', section);

  // resend: a toast, a second attempt in the log, the same webhook-id at the receiver, freshly signed
  await first.getByRole('button', { name: /^Resend test attempt 1/ }).click();
  await expect(page.getByText('Delivery resent')).toBeVisible();
  await expect(rows(endpoint)).toHaveCount(2, { timeout: 15_000 });
  await expect(rows(endpoint).first().getByText('succeeded', { exact: true })).toBeVisible();
  await expect(rows(endpoint).first().getByRole('cell').nth(2)).toHaveText('2');
  await expect(rows(endpoint).first().getByRole('cell').nth(3)).toHaveText('200');
  await receivedCount(2);
  const resent = receiver.received[1];
  expect(resent.headers['webhook-id']).toBe(testMsg.headers['webhook-id']);
  expect(verify(secret, resent).type).toBe('test');
  expect(JSON.parse(resent.body)).toEqual(JSON.parse(testMsg.body));

  // the event filter: job.failed off is saved and survives a reload; the last event cannot be unticked
  const group = endpoint.getByRole('group', { name: 'Events sent to this endpoint' });
  await toggle(group, 'job.failed');
  await expect(group.getByRole('checkbox', { name: 'job.failed' })).not.toBeChecked();
  await expect(group.getByText('Event filter saved.')).toBeVisible();
  await page.reload();
  await expect(group.getByRole('checkbox', { name: 'job.failed' })).not.toBeChecked();
  await expect(group.getByRole('checkbox', { name: 'job.completed' })).toBeChecked();
  await expect(group.getByRole('checkbox', { name: 'job.cancelled' })).toBeChecked();
  await toggle(group, 'job.cancelled');
  await expect(group.getByText('Event filter saved.')).toBeVisible();
  await expect(group.getByRole('checkbox', { name: 'job.cancelled' })).not.toBeChecked();
  await toggle(group, 'batch.completed');
  await expect(group.getByRole('checkbox', { name: 'batch.completed' })).not.toBeChecked();
  await expect(group.getByText('Event filter saved.')).toBeVisible();
  await toggle(group, 'job.completed');
  await expect(group.getByRole('alert')).toHaveText(/Choose at least one event/);
  await expect(group.getByRole('checkbox', { name: 'job.completed' })).toBeChecked();
  await page.reload();
  await expect(group.getByRole('checkbox', { name: 'job.completed' })).toBeChecked();
  await expect(group.getByRole('checkbox', { name: 'job.cancelled' })).not.toBeChecked();

  // rotate the secret: the dialog explains the 24 h overlap; the new secret is shown once; a note says
  // until when the old one still signs, and the next delivery verifies with either secret
  await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Rotate signing secret?' });
  await expect(dialog).toContainText('keeps signing alongside the new one for 24 hours');
  await dialog.getByRole('button', { name: 'Rotate secret' }).click();
  await expect(dialog).toBeHidden();
  const newSecretBox = endpoint.getByTestId('webhook-secret');
  await expect(newSecretBox).toHaveText(/^whsec_/);
  const newSecret = (await newSecretBox.textContent())!.trim();
  expect(newSecret).not.toBe(secret);
  await expect(
    endpoint.getByText(/^Previous secret valid until \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}$/),
  ).toBeVisible();

  await endpoint.getByRole('button', { name: 'Send test event' }).click();
  await expect(rows(endpoint)).toHaveCount(3, { timeout: 15_000 });
  await receivedCount(3);
  const afterRotation = receiver.received[2];
  expect(verify(newSecret, afterRotation).type).toBe('test');
  expect(verify(secret, afterRotation).type).toBe('test');
  await expect(rows(endpoint).first().getByText('succeeded', { exact: true })).toBeVisible();

  // accessible: axe finds nothing serious in the section
  const { violations } = await new AxeBuilder({ page })
    .include('[aria-labelledby="webhooks-title"]')
    .analyze();
  expect(
    violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`),
  ).toEqual([]);

  // a phone: nothing sticks out sideways; the log scrolls in its own box
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(rows(endpoint)).toHaveCount(3);
  await rows(endpoint)
    .first()
    .getByRole('button', { name: /^Show response/ })
    .click();
  await expect(endpoint.getByTestId('delivery-response')).toHaveText(RECEIVER_BODY);
  await expect(endpoint.getByText(/^Previous secret valid until/)).toBeVisible();
  await expectNoSidewaysOverflow(page);
  await logBox.evaluate((el) => el.scrollTo({ left: 0 }));
  await screenshot(page, 'profile-375');
  await screenshot(page, 'webhooks-section-375', section);
  await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
  await expect(dialog).toBeVisible();
  await screenshot(page, 'rotate-dialog-375', dialog);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});
