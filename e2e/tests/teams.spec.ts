import { expect, test, type Page } from '@playwright/test';
import { Client } from 'pg';
import {
  apiPost,
  createMappingViaApi,
  decodeQuotedPrintable,
  newUser,
  passwordField,
  signUpViaApi,
  subscribeToBusinessViaApi,
  waitForMail,
} from '../fixtures/helpers';

// Teams in the browser: the account holder (Business) invites from the profile's Team section, the mail
// really goes over SMTP, a new user opens its link, signs up from it, joins, and sees the team's saved
// mapping. Screenshots of the Team section at 1280 and 375 px for a human to look at.

/** Uploads a template and a data file through the api as the signed-in page and maps them (sync run). */
async function runSyncViaApi(page: Page, dataFilename: string): Promise<void> {
  const headers = { 'X-Requested-With': 'csv-mapper' };
  const upload = async (type: string, name: string, text: string) => {
    const res = await page.request.post('/api/upload', {
      headers,
      multipart: { type, file: { name, mimeType: 'text/csv', buffer: Buffer.from(text) } },
    });
    expect(res.ok(), `upload answered ${res.status()}: ${await res.text()}`).toBe(true);
    return ((await res.json()) as { id: string }).id;
  };
  const templateFileId = await upload('template', 'template.csv', 'Customer,Email\n');
  const dataFileId = await upload(
    'data',
    dataFilename,
    'Name,Email\nAna,ana@example.com\nBo,bo@example.com\n',
  );
  await apiPost(page, '/api/process', {
    templateFileId,
    dataFileId,
    mappings: [
      { templateColumn: 'Customer', dataColumn: 'Name' },
      { templateColumn: 'Email', dataColumn: 'Email' },
    ],
    options: {},
  });
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-output/e2e/teams-${name}.png`, fullPage: false });

test('invite → accept from the mail link as a new user → the member sees the team’s saved mapping', async ({
  browser,
}) => {
  const ownerCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const owner = await ownerCtx.newPage();
  const holder = newUser('own');
  await signUpViaApi(owner, holder);
  await subscribeToBusinessViaApi(owner);
  await createMappingViaApi(owner, 'Team bank export');

  const invitee = newUser('mem');
  await owner.goto('/profile');
  const team = owner.getByTestId('team-section');
  await expect(team.getByTestId('team-seats')).toHaveText('1 of 5 seats used');
  await expect(team.getByText('Account holder', { exact: true })).toBeVisible();
  const sentAt = Date.now();
  await team.getByRole('textbox', { name: 'Invite by email' }).fill(invitee.email);
  await team.getByRole('button', { name: 'Send invitation' }).click();
  await expect(
    team.getByRole('list', { name: 'Pending invitations' }).getByText(invitee.email),
  ).toBeVisible();
  await team.scrollIntoViewIfNeeded();
  await shot(owner, 'owner-1280');

  const mail = decodeQuotedPrintable(await waitForMail(invitee.email, sentAt - 1000));
  const link = /https?:\/\/[^\s"<>]+\/team\/join\?token=[A-Za-z0-9_%-]+/.exec(mail)?.[0];
  expect(link, 'an invitation link in the mail').toBeTruthy();

  // A new user on a phone: open the link, create an account from it, come back and join.
  const memberCtx = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const member = await memberCtx.newPage();
  await member.goto(link!);
  await expect(member.getByRole('heading', { name: 'Join a team on CSV Mapper' })).toBeVisible();
  await member.getByRole('link', { name: 'Create an account to join' }).click();
  const form = member.getByRole('form', { name: 'Sign Up' });
  await form.getByRole('textbox', { name: 'Username' }).fill(invitee.username);
  await form.getByRole('textbox', { name: 'Email' }).fill(invitee.email);
  await form.getByRole('textbox', { name: 'First name' }).fill(invitee.firstName);
  await form.getByRole('textbox', { name: 'Last name' }).fill(invitee.lastName);
  await passwordField(member).fill(invitee.password);
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(member).toHaveURL(/\/team\/join\?token=/);
  await member.getByRole('button', { name: 'Join the team' }).click();
  await expect(member).toHaveURL(/\/saved-mappings$/);
  await expect(member.getByText('Team bank export')).toBeVisible();

  // The member maps a file: the team's recent runs name who ran it ("you" for the member themselves).
  await runSyncViaApi(member, 'member-customers.csv');

  // The member's profile: the team, the account holder named as such, Leave, and no payment actions.
  await member.goto('/profile');
  const memberRun = member.getByRole('list', { name: 'Recent runs' }).getByTestId('team-run');
  await expect(memberRun).toHaveCount(1);
  await expect(memberRun).toContainText('member-customers.csv');
  await expect(memberRun).toContainText('2 rows');
  await expect(memberRun).toContainText('by you');
  const memberTeam = member.getByTestId('team-section');
  await expect(memberTeam.getByTestId('team-seats')).toHaveText('2 of 5 seats used');
  await expect(
    memberTeam.getByRole('list', { name: 'Team members' }).getByText(holder.username, { exact: true }),
  ).toBeVisible();
  await expect(memberTeam.getByRole('button', { name: 'Leave team' })).toBeVisible();
  await expect(member.getByTestId('billing-by-account-holder')).toBeVisible();
  await expect(member.getByRole('button', { name: /Upgrade to/ })).toHaveCount(0);
  await memberTeam.scrollIntoViewIfNeeded();
  await shot(member, 'member-375');

  // The link worked once.
  await member.goto(link!);
  await member.getByRole('button', { name: 'Join the team' }).click();
  await expect(member.getByTestId('join-problem')).toContainText('invalid, already used');

  // The account holder sees the new member.
  await owner.reload();
  await expect(team.getByTestId('team-seats')).toHaveText('2 of 5 seats used');
  await expect(team.getByRole('list', { name: 'Recent runs' }).getByTestId('team-run')).toContainText(
    `by ${invitee.username}`,
  );
  await team.scrollIntoViewIfNeeded();
  await shot(owner, 'owner-runs-1280');

  // Below the seat count (the plan changed to Pro, 1 seat; billing.spec covers the downgrade itself): the
  // member still signs in and reads, sees the banner, and the mapping's save is refused.
  const db = new Client({ connectionString: process.env.E2E_DATABASE_URL });
  await db.connect();
  await db.query(`UPDATE users SET plan = 'pro' WHERE username = $1`, [holder.username]);
  await db.end();
  await member.goto('/saved-mappings');
  await expect(member.getByTestId('team-read-only-banner')).toContainText('This team is read-only for you');
  await expect(member.getByText('Team bank export')).toBeVisible();
  await shot(member, 'read-only-375');
  await member.setViewportSize({ width: 1280, height: 900 });
  await shot(member, 'read-only-1280');
  const refused = await member.request.post('/api/mappings', {
    headers: { 'X-Requested-With': 'csv-mapper' },
    data: {
      name: 'x',
      templateHeaders: ['A'],
      dataHeaders: ['B'],
      mappings: [{ templateColumn: 'A', dataColumn: 'B' }],
    },
  });
  expect(refused.status()).toBe(403);
  await expect(
    team.getByRole('list', { name: 'Team members' }).getByText(invitee.username, { exact: true }),
  ).toBeVisible();
  await ownerCtx.close();
  await memberCtx.close();
});

test('a plan with no free seat says so, and what raises the limit, instead of offering an invitation that would be refused', async ({
  page,
}) => {
  await signUpViaApi(page, newUser('solo'));
  await page.goto('/profile');
  const team = page.getByTestId('team-section');
  await expect(team.getByTestId('team-seats')).toHaveText('1 of 1 seat used');
  await expect(team.getByTestId('team-seats-full')).toHaveText(
    "Your Free plan includes 1 seat, the account holder's included. Upgrade to Business for up to 5 members, or Enterprise for unlimited members.",
  );
  await expect(team.getByRole('textbox', { name: 'Invite by email' })).toHaveCount(0);
  // the api answers the same words to an invitation sent anyway
  const refused = await page.request.post('/api/team/invitations', {
    headers: { 'X-Requested-With': 'csv-mapper' },
    data: { email: 'colleague@example.com' },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({
    code: 'TEAM_SEAT_LIMIT',
    error: await team.getByTestId('team-seats-full').textContent(),
  });
});
