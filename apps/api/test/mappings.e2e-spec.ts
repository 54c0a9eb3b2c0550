import type { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { H, signUp, startApp } from './support/api-test-app';

// Saved mappings against the real Postgres: validation, plan limits, the downgrade lock, ownership,
// create-or-update PUT, source recognition; and the built-in templates.

function body(name: string, dataHeaders = ['Full Name', 'Email Address']) {
  return {
    name,
    description: 'Monthly CRM export',
    templateHeaders: ['Name', 'Email'],
    dataHeaders,
    mappings: [
      { templateColumn: 'Name', dataColumn: dataHeaders[0], transform: { kind: 'trim' } },
      { templateColumn: 'Email', dataColumn: dataHeaders[1] },
    ],
  };
}

describe('saved mappings (e2e)', () => {
  let app: INestApplication;
  let db: DataSource;
  beforeAll(async () => {
    app = await startApp();
    db = app.get(DataSource);
  });
  afterAll(() => app.close());

  it('saves, lists, reads, updates and deletes a mapping with its transforms', async () => {
    const { agent } = await signUp(app, 'pro');
    const created = await agent
      .post('/api/mappings')
      .set(H)
      .send({ ...body('  CRM import  '), description: '  ' })
      .expect(201);
    expect(created.body).toMatchObject({
      name: 'CRM import',
      description: null,
      locked: false,
      templateHeaders: ['Name', 'Email'],
    });
    expect(created.body.mappings[0].transform).toEqual({ kind: 'trim' });
    const list = await agent.get('/api/mappings').expect(200);
    expect(list.body).toHaveLength(1);
    const one = await agent.get(`/api/mappings/${created.body.id}`).expect(200);
    expect(one.body.dataHeaders).toEqual(['Full Name', 'Email Address']);
    const updated = await agent
      .put(`/api/mappings/${created.body.id}`)
      .set(H)
      .send(body('Renamed'))
      .expect(200);
    expect(updated.body).toMatchObject({
      id: created.body.id,
      name: 'Renamed',
      description: 'Monthly CRM export',
    });
    await agent.delete(`/api/mappings/${created.body.id}`).set(H).expect(204);
    await agent.get(`/api/mappings/${created.body.id}`).expect(404);
  });

  it('requires a name and valid pairs', async () => {
    const { agent } = await signUp(app);
    const noName = await agent.post('/api/mappings').set(H).send(body('   ')).expect(400);
    expect(noName.body).toMatchObject({
      error: 'Please enter a name for the mapping',
      code: 'NAME_REQUIRED',
    });
    const bad = await agent
      .post('/api/mappings')
      .set(H)
      .send({ ...body('x'), mappings: [{ templateColumn: 'Nope', dataColumn: 'Full Name' }] })
      .expect(400);
    expect(bad.body.code).toBe('INVALID_MAPPING');
    const noHeaders = await agent.post('/api/mappings').set(H).send({ name: 'x', mappings: [] }).expect(400);
    expect(noHeaders.body.code).toBe('VALIDATION_FAILED');
  });

  it('refuses a save beyond the plan limit with 403 (free: 1)', async () => {
    const { agent } = await signUp(app);
    await agent.post('/api/mappings').set(H).send(body('First')).expect(201);
    const res = await agent.post('/api/mappings').set(H).send(body('Second')).expect(403);
    expect(res.body.code).toBe('MAPPING_LIMIT_REACHED');
    expect(res.body.error).toContain('exceeds your plan limit of 1 saved mapping');
    const put = await agent.put(`/api/mappings/${randomUUID()}`).set(H).send(body('Third')).expect(403);
    expect(put.body.code).toBe('MAPPING_LIMIT_REACHED');
  });

  it('locks every mapping but the oldest after a downgrade to free', async () => {
    const { agent, userId } = await signUp(app, 'pro');
    const ids: string[] = [];
    for (const name of ['Oldest', 'Middle', 'Newest']) {
      ids.push(
        ((await agent.post('/api/mappings').set(H).send(body(name)).expect(201)).body as { id: string }).id,
      );
    }
    await db.query("UPDATE users SET plan = 'free' WHERE id = $1", [userId]);
    const list = await agent.get('/api/mappings').expect(200);
    expect(list.body.map((m: { name: string; locked: boolean }) => [m.name, m.locked])).toEqual([
      ['Oldest', false],
      ['Middle', true],
      ['Newest', true],
    ]);
    await agent.get(`/api/mappings/${ids[0]}`).expect(200);
    const locked = await agent.get(`/api/mappings/${ids[1]}`).expect(403);
    expect(locked.body.code).toBe('UPGRADE_REQUIRED');
    expect(locked.body.error).toContain('Upgrade Required');
    await agent.put(`/api/mappings/${ids[2]}`).set(H).send(body('Edit')).expect(403);
    // deleting stays possible, and frees nothing beyond the plan: still 2 of 1
    await agent.delete(`/api/mappings/${ids[2]}`).set(H).expect(204);
    await agent.post('/api/mappings').set(H).send(body('Another')).expect(403);
  });

  it("hides other users' mappings behind 404", async () => {
    const a = await signUp(app);
    const b = await signUp(app);
    const { body: m } = await a.agent.post('/api/mappings').set(H).send(body('Mine')).expect(201);
    await b.agent.get(`/api/mappings/${m.id}`).expect(404);
    await b.agent.put(`/api/mappings/${m.id}`).set(H).send(body('Stolen')).expect(404);
    await b.agent.delete(`/api/mappings/${m.id}`).set(H).expect(404);
    expect((await b.agent.get('/api/mappings').expect(200)).body).toEqual([]);
    await b.agent.get('/api/mappings/not-a-uuid').expect(404);
    expect((await a.agent.get(`/api/mappings/${m.id}`).expect(200)).body.name).toBe('Mine');
  });

  it('creates under a chosen id with PUT (201), then updates it (200)', async () => {
    const { agent } = await signUp(app, 'business');
    const id = randomUUID();
    const created = await agent.put(`/api/mappings/${id}`).set(H).send(body('By API')).expect(201);
    expect(created.body.id).toBe(id);
    await agent.put(`/api/mappings/${id}`).set(H).send(body('By API v2')).expect(200);
    await agent.put('/api/mappings/abc').set(H).send(body('x')).expect(400);
  });

  it("recognises the saved mapping that fits a data file's headers", async () => {
    const { agent } = await signUp(app, 'pro');
    await agent
      .post('/api/mappings')
      .set(H)
      .send(body('CRM', ['Full Name', 'Email Address']))
      .expect(201);
    const bank = await agent
      .post('/api/mappings')
      .set(H)
      .send(body('Bank', ['Payee', 'Mail']))
      .expect(201);
    const hit = await agent
      .post('/api/mappings/match')
      .set(H)
      .send({ headers: ['mail', 'PAYEE'] })
      .expect(200);
    expect(hit.body.mapping.id).toBe(bank.body.id);
    expect(hit.body.score).toBe(1);
    const near = await agent
      .post('/api/mappings/match')
      .set(H)
      .send({ headers: ['Full Name', 'Email Address', 'Phone'] })
      .expect(200);
    expect(near.body.mapping.name).toBe('CRM');
    const miss = await agent
      .post('/api/mappings/match')
      .set(H)
      .send({ headers: ['Something', 'Else'] })
      .expect(200);
    expect(miss.body).toEqual({ mapping: null, score: 0 });
    await agent.post('/api/mappings/match').set(H).send({}).expect(400);
  });

  it('lists the built-in templates', async () => {
    const res = await request(app.getHttpServer()).get('/api/templates').expect(200);
    const shopify = res.body.find((t: { id: string }) => t.id === 'shopify-products');
    expect(shopify.headers).toEqual(expect.arrayContaining(['Handle', 'Title']));
    expect(res.body.length).toBeGreaterThanOrEqual(4);
  });
});
