import type { INestApplication } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { H, signUp, startApp, type Agent } from './support/api-test-app';
import { BANK_EXPORT_MAPPING } from './support/bank-export';

// Every team-scoped route checks membership: a caller outside the team gets 404 for the team's ids (as if
// they did not exist), a member of the team reaches the same ids. One table, one parameterised test.

interface Route {
  method: 'get' | 'put' | 'patch' | 'post' | 'delete';
  path: string;
  body?: object;
  /** Safe to call as a member too (reads, and writes that keep the row). */
  memberToo?: boolean;
  /** A bulk upload names each file it cannot use (here: not found) and answers 400 when none is left. */
  outsiderStatus?: number;
}

const mapping = BANK_EXPORT_MAPPING;

describe('membership check on every team-scoped route (real Postgres and Redis)', () => {
  let app: INestApplication;
  let owner: Agent;
  let member: Agent;
  let outsider: Agent;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    app = await startApp({ SYNC_ROW_LIMIT: '1' });
    const o = await signUp(app, 'business');
    const m = await signUp(app);
    const x = await signUp(app, 'business');
    [owner, member, outsider] = [o.agent, m.agent, x.agent];
    ids.member = m.userId;
    // The member joins through an invitation (its token is read from the database here; the mail path
    // is proven in teams.e2e-spec).
    const invited = await owner
      .post('/api/team/invitations')
      .set(H)
      .send({ email: `${m.username}@example.com` });
    expect(invited.status).toBe(201);
    const db = app.get(DataSource);
    const token = 'membership-table-token';
    await db.query(`UPDATE team_invitations SET token_hash = $2 WHERE id = $1`, [
      invited.body.id,
      createHash('sha256').update(token).digest('hex'),
    ]);
    await member.post('/api/team/invitations/accept').set(H).send({ token }).expect(200);
    ids.invitation = (
      await owner.post('/api/team/invitations').set(H).send({ email: 'pending@example.com' }).expect(201)
    ).body.id;

    ids.mapping = (await owner.post('/api/mappings').set(H).send(mapping).expect(201)).body.id;
    ids.key = (await owner.post('/api/api-keys').set(H).send({ name: 'k' }).expect(201)).body.id;
    ids.webhook = (
      await owner.post('/api/webhooks').set(H).send({ url: 'https://hooks.example.com/csv' }).expect(201)
    ).body.id;
    ids.template = (
      await owner
        .post('/api/upload')
        .set(H)
        .field('type', 'template')
        .attach('file', Buffer.from('Date,Amount\n'), 't.csv')
        .expect(201)
    ).body.id;
    ids.data = (
      await owner
        .post('/api/upload')
        .set(H)
        .field('type', 'data')
        .attach('file', Buffer.from('Tag,Betrag\n1,2\n3,4\n5,6\n'), 'd.csv')
        .expect(201)
    ).body.id;
    const job = await owner
      .post('/api/process')
      .set(H)
      .send({ templateFileId: ids.template, dataFileId: ids.data, mappings: mapping.mappings, options: {} });
    expect(job.status).toBe(202);
    ids.job = job.body.jobId;
    const batch = await owner
      .post('/api/batches')
      .set(H)
      .send({
        templateFileId: ids.template,
        dataFileIds: [ids.data],
        mappings: mapping.mappings,
        options: {},
      });
    expect(batch.status).toBe(202);
    ids.batch = batch.body.batchId;
  });
  afterAll(() => app?.close());

  const processBody = () => ({
    templateFileId: ids.template,
    dataFileId: ids.data,
    mappings: mapping.mappings,
    options: {},
  });
  const routes: Route[] = [
    { method: 'get', path: '/api/mappings/:mapping', memberToo: true },
    { method: 'get', path: '/api/mappings/:mapping/recipe', memberToo: true },
    { method: 'put', path: '/api/mappings/:mapping', body: mapping, memberToo: true },
    { method: 'delete', path: '/api/mappings/:mapping' },
    { method: 'delete', path: '/api/api-keys/:key' },
    { method: 'patch', path: '/api/webhooks/:webhook', body: { enabled: true }, memberToo: true },
    { method: 'delete', path: '/api/webhooks/:webhook' },
    { method: 'post', path: '/api/webhooks/:webhook/test' },
    { method: 'post', path: '/api/webhooks/:webhook/rotate-secret' },
    { method: 'get', path: '/api/webhooks/:webhook/deliveries', memberToo: true },
    { method: 'post', path: `/api/webhooks/:webhook/deliveries/${randomUUID()}/resend` },
    { method: 'get', path: '/api/jobs/:job', memberToo: true },
    { method: 'get', path: '/api/jobs/:job/result' },
    { method: 'get', path: '/api/jobs/:job/issues' },
    { method: 'patch', path: '/api/jobs/:job/cells', body: { edits: [] } },
    { method: 'post', path: '/api/jobs/:job/rerun' },
    { method: 'delete', path: '/api/jobs/:job' },
    { method: 'get', path: '/api/batches/:batch', memberToo: true },
    { method: 'get', path: '/api/batches/:batch/result.zip' },
    { method: 'post', path: '/api/batches', body: {}, outsiderStatus: 400 },
    { method: 'delete', path: '/api/upload/:data' },
    { method: 'post', path: '/api/process/preview', body: {}, memberToo: true },
    { method: 'post', path: '/api/process', body: {} },
    { method: 'delete', path: '/api/team/invitations/:invitation' },
    { method: 'delete', path: '/api/team/members/:member' },
  ];

  const call = (agent: Agent, r: Route) => {
    const path = r.path.replace(/:(\w+)/g, (_m, k: string) => ids[k]);
    const body = r.path.startsWith('/api/process')
      ? processBody()
      : r.path === '/api/batches'
        ? { templateFileId: ids.template, dataFileIds: [ids.data], mappings: mapping.mappings, options: {} }
        : r.body;
    const req = agent[r.method](path).set(H);
    return body ? req.send(body) : req;
  };

  it.each(routes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))(
    '%s: 404 for a caller outside the team',
    async (_name, r) => {
      const res = await call(outsider, r);
      expect(res.status).toBe(r.outsiderStatus ?? 404);
      expect(res.body.error).toEqual(
        r.outsiderStatus ? expect.stringMatching(/not found/i) : expect.any(String),
      );
    },
  );

  it.each(routes.filter((r) => r.memberToo).map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))(
    '%s: reached by a member of the team',
    async (_name, r) => {
      const res = await call(member, r);
      expect(res.status).toBeLessThan(300);
    },
  );

  it('lists only the caller’s team: the outsider sees none of the team’s rows, the member all of them', async () => {
    // The job list holds the single job and the batch's one job.
    const counts = {
      '/api/mappings': 1,
      '/api/api-keys': 1,
      '/api/webhooks': 1,
      '/api/jobs': 2,
      '/api/batches': 1,
    };
    for (const [path, n] of Object.entries(counts)) {
      const theirs = (await outsider.get(path).expect(200)).body as unknown[];
      const team = (await member.get(path).expect(200)).body as unknown[];
      expect([path, theirs.length]).toEqual([path, 0]);
      expect([path, team.length]).toEqual([path, n]);
    }
  });
});
