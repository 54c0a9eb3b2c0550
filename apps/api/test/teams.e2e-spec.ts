import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { H, signUp, startApp, type Agent } from './support/api-test-app';
import { BANK_EXPORT_MAPPING } from './support/bank-export';
import { SmtpInbox, type Mail } from './support/smtp-inbox';
import { uploadPair } from './support/uploads';

// Teams end to end: invitations travel through a real SMTP server and are accepted with the token of the
// mailed link; seats, revoke, expiry, single use, removal (access ends at once, keys revoked), leaving,
// read-only after a downgrade, billing only for the account holder, and account deletion.

const APP_URL = 'https://csvmapper.test';

function tokenIn(mail: Mail): string {
  const m = /https:\/\/csvmapper\.test\/team\/join\?token=([A-Za-z0-9_%-]+)/.exec(mail.text);
  if (!m) throw new Error(`no invitation link in:\n${mail.text}`);
  return decodeURIComponent(m[1]);
}

const mapping = BANK_EXPORT_MAPPING;

describe('teams (real Postgres, Redis and SMTP)', () => {
  let app: INestApplication;
  let inbox: SmtpInbox;
  let db: DataSource;

  beforeAll(async () => {
    inbox = new SmtpInbox();
    const port = await inbox.listen();
    app = await startApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, APP_URL });
    db = app.get(DataSource);
  });
  afterAll(async () => {
    await app?.close();
    await inbox?.close();
  });

  const emailOf = (username: string) => `${username}@example.com`;

  /** Invites `username`'s address and answers the token from the mail that arrives. */
  async function invite(owner: Agent, username: string): Promise<{ id: string; token: string }> {
    const res = await owner
      .post('/api/team/invitations')
      .set(H)
      .send({ email: emailOf(username) });
    expect(res.status).toBe(201);
    const mail = await inbox.next(emailOf(username), /invited you to their team/);
    return { id: res.body.id as string, token: tokenIn(mail) };
  }

  async function join(owner: Agent, plan?: string) {
    const member = await signUp(app, plan);
    const { token } = await invite(owner, member.username);
    await member.agent.post('/api/team/invitations/accept').set(H).send({ token }).expect(200);
    return member;
  }

  it('invites by mail; the invitee accepts the link and uses the team’s saved mapping; the link works once', async () => {
    const owner = await signUp(app, 'business');
    const saved = await owner.agent.post('/api/mappings').set(H).send(mapping).expect(201);
    const invitee = await signUp(app);
    const { token } = await invite(owner.agent, invitee.username);

    const pending = (await owner.agent.get('/api/team').expect(200)).body;
    expect(pending).toMatchObject({ role: 'owner', seatsUsed: 1, seatsAllowed: 5 });
    expect(pending.invitations).toEqual([expect.objectContaining({ email: emailOf(invitee.username) })]);

    const accepted = await invitee.agent.post('/api/team/invitations/accept').set(H).send({ token });
    expect(accepted.status).toBe(200);
    expect(accepted.body.teamId).toBe(owner.userId);

    const team = (await invitee.agent.get('/api/team').expect(200)).body;
    expect(team).toMatchObject({
      id: owner.userId,
      role: 'member',
      readOnly: false,
      seatsUsed: 2,
      plan: 'business',
    });
    expect(team.members.map((m: { username: string; role: string }) => [m.username, m.role])).toEqual([
      [owner.username, 'owner'],
      [invitee.username, 'member'],
    ]);
    expect(team.invitations).toEqual([]); // members do not see pending invitations
    const list = (await invitee.agent.get('/api/mappings').expect(200)).body;
    expect(list.map((m: { id: string }) => m.id)).toEqual([saved.body.id]);

    // What the member saves is the team's: the owner sees it.
    const second = await invitee.agent
      .post('/api/mappings')
      .set(H)
      .send({ ...mapping, name: 'Shop' });
    expect(second.status).toBe(201);
    expect((await owner.agent.get(`/api/mappings/${second.body.id}`).expect(200)).body.name).toBe('Shop');

    // Single use: the same link again (by anyone) is refused.
    const other = await signUp(app);
    const again = await other.agent.post('/api/team/invitations/accept').set(H).send({ token });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('INVALID_INVITATION');
  });

  it('answers an invitation the same way whether or not the address has an account', async () => {
    const owner = await signUp(app, 'business');
    const existing = await signUp(app);
    const a = await owner.agent
      .post('/api/team/invitations')
      .set(H)
      .send({ email: emailOf(existing.username) });
    const b = await owner.agent
      .post('/api/team/invitations')
      .set(H)
      .send({ email: `nobody_${randomBytes(4).toString('hex')}@example.com` });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(Object.keys(a.body).sort()).toEqual(Object.keys(b.body).sort());
  });

  it('refuses an invitation beyond the seats, naming the limit and the plan that raises it', async () => {
    const pro = await signUp(app, 'pro');
    const refused = await pro.agent.post('/api/team/invitations').set(H).send({ email: 'x@example.com' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('TEAM_SEAT_LIMIT');
    expect(refused.body.error).toMatch(/Pro plan includes 1 seat.*Upgrade to Business for up to 5 members/);

    const owner = await signUp(app, 'business');
    await join(owner.agent);
    await join(owner.agent);
    // Two members + the owner; two pending invitations fill the five seats.
    for (const n of [1, 2]) {
      await owner.agent
        .post('/api/team/invitations')
        .set(H)
        .send({ email: `p${n}@example.com` })
        .expect(201);
    }
    const full = await owner.agent.post('/api/team/invitations').set(H).send({ email: 'sixth@example.com' });
    expect(full.status).toBe(403);
    expect(full.body.error).toMatch(/Business plan includes 5 seats.*Enterprise for unlimited members/);
    expect((await owner.agent.get('/api/team').expect(200)).body).toMatchObject({
      seatsUsed: 3,
      seatsAllowed: 5,
    });

    // Enterprise: no limit.
    const ent = await signUp(app, 'enterprise');
    for (let n = 0; n < 6; n++) {
      await ent.agent
        .post('/api/team/invitations')
        .set(H)
        .send({ email: `e${n}@example.com` })
        .expect(201);
    }
  });

  it('makes a revoked or expired link useless, and lets only the account holder invite', async () => {
    const owner = await signUp(app, 'business');
    const invitee = await signUp(app);
    const first = await invite(owner.agent, invitee.username);
    await owner.agent.delete(`/api/team/invitations/${first.id}`).set(H).expect(204);
    await owner.agent.delete(`/api/team/invitations/${first.id}`).set(H).expect(404);
    const revoked = await invitee.agent
      .post('/api/team/invitations/accept')
      .set(H)
      .send({ token: first.token });
    expect(revoked.body.code).toBe('INVALID_INVITATION');

    const second = await invite(owner.agent, invitee.username);
    await db.query(`UPDATE team_invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      second.id,
    ]);
    const expired = await invitee.agent
      .post('/api/team/invitations/accept')
      .set(H)
      .send({ token: second.token });
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('INVALID_INVITATION');
    const [row] = await db.query(
      `SELECT expires_at - created_at AS ttl FROM team_invitations WHERE id = $1`,
      [(await invite(owner.agent, invitee.username)).id],
    );
    expect(row.ttl).toMatchObject({ days: 7 });

    const member = await join(owner.agent);
    const notHolder = await member.agent
      .post('/api/team/invitations')
      .set(H)
      .send({ email: 'z@example.com' });
    expect(notHolder.status).toBe(403);
    expect(notHolder.body.code).toBe('ACCOUNT_HOLDER_ONLY');
  });

  it('refuses to join for someone already in a team or paying for their own plan (the link stays usable)', async () => {
    const a = await signUp(app, 'business');
    const b = await signUp(app, 'business');
    const member = await join(a.agent);
    const { token } = await invite(b.agent, member.username);
    const busy = await member.agent.post('/api/team/invitations/accept').set(H).send({ token });
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('CANNOT_JOIN_TEAM');
    await member.agent.post('/api/team/leave').set(H).expect(200);
    await member.agent.post('/api/team/invitations/accept').set(H).send({ token }).expect(200);

    const payer = await signUp(app, 'pro');
    const second = await invite(b.agent, payer.username);
    const paying = await payer.agent
      .post('/api/team/invitations/accept')
      .set(H)
      .send({ token: second.token });
    expect(paying.status).toBe(409);
    expect(paying.body.error).toMatch(/Pro plan yourself/);
  });

  it('removal ends the member’s access at once and revokes the API keys they created for the team', async () => {
    const owner = await signUp(app, 'business');
    const saved = await owner.agent.post('/api/mappings').set(H).send(mapping).expect(201);
    const member = await join(owner.agent);
    const key = (await member.agent.post('/api/api-keys').set(H).send({ name: 'member key' }).expect(201))
      .body;
    const ownerKey = (await owner.agent.post('/api/api-keys').set(H).send({ name: 'owner key' }).expect(201))
      .body;
    const bearer = (k: string) => ({ Authorization: `Bearer ${k}` });
    await request(app.getHttpServer()).get(`/api/mappings/${saved.body.id}`).set(bearer(key.key)).expect(200);
    // Both keys are the team's: each sees both.
    expect((await owner.agent.get('/api/api-keys').expect(200)).body).toHaveLength(2);

    // Members cannot remove anyone.
    const denied = await member.agent.delete(`/api/team/members/${owner.userId}`).set(H);
    expect(denied.body.code).toBe('ACCOUNT_HOLDER_ONLY');

    await owner.agent.delete(`/api/team/members/${member.userId}`).set(H).expect(204);
    // The same signed-in session: the team's mapping is gone from its reach at once.
    await member.agent.get(`/api/mappings/${saved.body.id}`).expect(404);
    expect((await member.agent.get('/api/team').expect(200)).body).toMatchObject({
      id: member.userId,
      role: 'owner',
      seatsUsed: 1,
    });
    const rejected = await request(app.getHttpServer())
      .get(`/api/mappings/${saved.body.id}`)
      .set(bearer(key.key));
    expect(rejected.status).toBe(401);
    await request(app.getHttpServer())
      .get(`/api/mappings/${saved.body.id}`)
      .set(bearer(ownerKey.key))
      .expect(200);
    await owner.agent.delete(`/api/team/members/${member.userId}`).set(H).expect(404);
  });

  it('a member leaves; the account holder cannot', async () => {
    const owner = await signUp(app, 'business');
    const member = await join(owner.agent);
    const stay = await owner.agent.post('/api/team/leave').set(H);
    expect(stay.status).toBe(409);
    await member.agent.post('/api/team/leave').set(H).expect(200);
    expect((await owner.agent.get('/api/team').expect(200)).body.seatsUsed).toBe(1);
    expect((await member.agent.get('/api/team').expect(200)).body.role).toBe('owner');
  });

  it('after a downgrade below the seat count, members beyond it read but cannot write until the owner upgrades', async () => {
    const owner = await signUp(app, 'business');
    const saved = await owner.agent.post('/api/mappings').set(H).send(mapping).expect(201);
    const m1 = await join(owner.agent);
    const m2 = await join(owner.agent);
    await db.query(`UPDATE users SET plan = 'pro' WHERE id = $1`, [owner.userId]);

    const team = (await m1.agent.get('/api/team').expect(200)).body;
    expect(team).toMatchObject({ readOnly: true, seatsUsed: 3, seatsAllowed: 1 });
    expect(team.members.map((m: { readOnly: boolean }) => m.readOnly)).toEqual([false, true, true]);
    await m1.agent.get(`/api/mappings/${saved.body.id}`).expect(200);
    const write = await m1.agent
      .post('/api/mappings')
      .set(H)
      .send({ ...mapping, name: 'Blocked' });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('TEAM_READ_ONLY');
    expect(write.body.error).toMatch(/read-only for you.*remove a member or upgrade/);
    const profile = (await m1.agent.get('/api/user/profile').expect(200)).body;
    expect(profile.team).toMatchObject({ role: 'member', readOnly: true, members: 3 });
    // The owner is never read-only.
    await owner.agent
      .put(`/api/mappings/${saved.body.id}`)
      .set(H)
      .send({ ...mapping, name: 'Renamed' })
      .expect(200);

    // Removing one member is not enough on Pro (1 seat); upgrading restores the other.
    await owner.agent.delete(`/api/team/members/${m2.userId}`).set(H).expect(204);
    expect((await m1.agent.get('/api/team').expect(200)).body.readOnly).toBe(true);
    await db.query(`UPDATE users SET plan = 'business' WHERE id = $1`, [owner.userId]);
    await m1.agent
      .post('/api/mappings')
      .set(H)
      .send({ ...mapping, name: 'Allowed' })
      .expect(201);
    // A read-only member may still leave.
    await db.query(`UPDATE users SET plan = 'free' WHERE id = $1`, [owner.userId]);
    await m1.agent.post('/api/team/leave').set(H).expect(200);
  });

  it('keeps billing with the account holder: members get no payment actions and see the team’s plan', async () => {
    const owner = await signUp(app, 'business');
    const member = await join(owner.agent);
    const checkout = await member.agent.post('/api/create-checkout-session').set(H).send({ plan: 'pro' });
    expect(checkout.status).toBe(403);
    expect(checkout.body.code).toBe('ACCOUNT_HOLDER_ONLY');
    const cancel = await member.agent.post('/api/cancel-subscription').set(H).send({});
    expect(cancel.status).toBe(403);
    const profile = (await member.agent.get('/api/user/profile').expect(200)).body;
    expect(profile).toMatchObject({
      plan: 'business',
      subscription: null,
      team: { role: 'member', members: 2 },
    });
  });

  it('counts quota per team and records who ran what', async () => {
    const owner = await signUp(app, 'business');
    const member = await join(owner.agent);
    const ids = await uploadPair(member.agent, 'Date,Amount\n', 'Tag,Betrag\n2024-01-01,1\n2024-01-02,2\n', {
      template: 't.csv',
      data: 'd.csv',
    });
    // The owner can use the file the member uploaded: files are the team's.
    await owner.agent
      .post('/api/process')
      .set(H)
      .send({ ...ids, mappings: mapping.mappings, options: {} })
      .expect(200);
    await member.agent
      .post('/api/process')
      .set(H)
      .send({ ...ids, mappings: mapping.mappings, options: {} })
      .expect(200);
    const history = await db.query(
      `SELECT user_id, rows_processed FROM usage_history WHERE team_id = $1 ORDER BY processed_at`,
      [owner.userId],
    );
    expect(history).toEqual([
      { user_id: owner.userId, rows_processed: 2 },
      { user_id: member.userId, rows_processed: 2 },
    ]);
    expect((await member.agent.get('/api/user/profile').expect(200)).body.monthlyUsage.used).toBe(4);
    expect((await owner.agent.get('/api/user/profile').expect(200)).body.monthlyUsage.used).toBe(4);
  });

  it('lists the team’s recent runs with who ran each, newest first, and never another team’s', async () => {
    /** Uploads a template and a data file named `name` with `rows` rows as `agent`, then runs it sync. */
    async function run(agent: Agent, name: string, rows: number) {
      const body = Array.from({ length: rows }, (_, i) => `2024-01-0${i + 1},${i}`).join('\n');
      const ids = await uploadPair(agent, 'Date,Amount\n', `Tag,Betrag\n${body}\n`, {
        template: 't.csv',
        data: name,
      });
      await agent
        .post('/api/process')
        .set(H)
        .send({ ...ids, mappings: mapping.mappings, options: {} })
        .expect(200);
    }
    const owner = await signUp(app, 'business');
    const member = await join(owner.agent);
    const stranger = await signUp(app, 'business');
    await run(owner.agent, 'owner-run.csv', 2);
    await run(stranger.agent, 'stranger-run.csv', 1);
    await run(member.agent, 'member-run.csv', 3);

    const seen = (await member.agent.get('/api/team/usage').expect(200)).body;
    expect(seen.runs).toEqual([
      {
        filename: 'member-run.csv',
        rowsProcessed: 3,
        fileSizeBytes: expect.any(Number),
        runBy: { userId: member.userId, name: member.username },
        jobId: null,
        createdAt: expect.any(String),
      },
      {
        filename: 'owner-run.csv',
        rowsProcessed: 2,
        fileSizeBytes: expect.any(Number),
        runBy: { userId: owner.userId, name: owner.username },
        jobId: null,
        createdAt: expect.any(String),
      },
    ]);
    expect(Date.parse(seen.runs[0].createdAt)).toBeGreaterThanOrEqual(Date.parse(seen.runs[1].createdAt));
    expect(seen.runs[1].fileSizeBytes).toBeGreaterThan(0);
    expect((await owner.agent.get('/api/team/usage').expect(200)).body).toEqual(seen);

    // Another team's user reads only their own team's runs.
    const theirs = (await stranger.agent.get('/api/team/usage').expect(200)).body;
    expect(theirs.runs).toEqual([
      expect.objectContaining({
        filename: 'stranger-run.csv',
        runBy: { userId: stranger.userId, name: stranger.username },
      }),
    ]);
  });

  it('a member reviews the problems of their own sync run: its review belongs to the team', async () => {
    const owner = await signUp(app, 'business');
    const member = await join(owner.agent);
    const ids = await uploadPair(member.agent, 'Date,Amount\n', 'Tag,Betrag\n2024-01-01,abc\n', {
      template: 't.csv',
      data: 'd.csv',
    });
    const run = await member.agent
      .post('/api/process')
      .set(H)
      .send({
        ...ids,
        mappings: [
          { templateColumn: 'Date', dataColumn: 'Tag' },
          { templateColumn: 'Amount', dataColumn: 'Betrag', transform: { kind: 'number' } },
        ],
        options: {},
      })
      .expect(200);
    expect(run.body.reviewId).toEqual(expect.stringMatching(/^sync-/));
    const issues = await member.agent.get(`/api/jobs/${run.body.reviewId}/issues`).expect(200);
    expect(issues.body.issues).toEqual([expect.objectContaining({ row: 1, column: 'Amount', value: 'abc' })]);
    await owner.agent.get(`/api/jobs/${run.body.reviewId}/issues`).expect(200);
  });

  it('deleting the account holder tells how many members lose access, then deletes the team’s data only', async () => {
    const owner = await signUp(app, 'business');
    const saved = await owner.agent.post('/api/mappings').set(H).send(mapping).expect(201);
    const m1 = await join(owner.agent);
    const m2 = await join(owner.agent);
    const mine = await m2.agent
      .post('/api/mappings')
      .set(H)
      .send({ ...mapping, name: 'Made by m2' })
      .expect(201);

    // Deleting a member's account removes only that member; what they made stays with the team.
    await m2.agent.post('/api/user/delete-account').set(H).send({ password: 'Tr1cky-Mapper!' }).expect(200);
    await owner.agent.get(`/api/mappings/${mine.body.id}`).expect(200);
    expect((await owner.agent.get('/api/team').expect(200)).body.seatsUsed).toBe(2);

    const unconfirmed = await owner.agent
      .post('/api/user/delete-account')
      .set(H)
      .send({ password: 'Tr1cky-Mapper!' });
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.body).toMatchObject({ code: 'TEAM_HAS_MEMBERS', details: { membersLosingAccess: 1 } });
    expect(unconfirmed.body.error).toMatch(/1 member will lose access/);
    await owner.agent
      .post('/api/user/delete-account')
      .set(H)
      .send({ password: 'Tr1cky-Mapper!', confirmMembersLosingAccess: 1 })
      .expect(200);

    expect(await db.query(`SELECT 1 FROM saved_mappings WHERE team_id = $1`, [owner.userId])).toEqual([]);
    await m1.agent.get(`/api/mappings/${saved.body.id}`).expect(404);
    expect((await m1.agent.get('/api/team').expect(200)).body).toMatchObject({
      id: m1.userId,
      role: 'owner',
    });
  });
});
