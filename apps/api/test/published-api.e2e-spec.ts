import type { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { H, signUp, startApp } from './support/api-test-app';

// The published API with a Bearer key, as an integration would call it: no cookie, no CSRF header.
describe('published API with a Bearer key (e2e)', () => {
  let app: INestApplication;
  let db: DataSource;
  beforeAll(async () => {
    app = await startApp();
    db = app.get(DataSource);
  });
  afterAll(() => app.close());

  async function keyFor(plan: string): Promise<{ key: string; userId: string }> {
    const { agent, userId } = await signUp(app, plan);
    const res = await agent.post('/api/api-keys').set(H).send({ name: 'integration' }).expect(201);
    return { key: res.body.key as string, userId };
  }

  it('uploads, saves a mapping with PUT and processes for a business key', async () => {
    const { key } = await keyFor('business');
    const api = () => request(app.getHttpServer());
    const auth = { Authorization: `Bearer ${key}` };
    const t = await api()
      .post('/api/upload/template')
      .set(auth)
      .attach('file', Buffer.from('Handle,Title,Variant Price\n'), {
        filename: 'shopify.csv',
        contentType: 'text/csv',
      })
      .expect(201);
    const d = await api()
      .post('/api/upload/data')
      .set(auth)
      .attach('file', Buffer.from('ItemID;ProductName;CostPrice\nA-1;Mug;4,50\nB-2;"Cup; large";12,00\n'), {
        filename: 'stock.csv',
        contentType: 'text/csv',
      })
      .expect(201);
    expect(d.body).toMatchObject({
      type: 'data',
      rowCount: 2,
      delimiter: ';',
      headers: ['ItemID', 'ProductName', 'CostPrice'],
    });
    const mappings = [
      { templateColumn: 'Handle', dataColumn: 'ItemID', transform: { kind: 'lower' } },
      { templateColumn: 'Title', dataColumn: 'ProductName' },
      { templateColumn: 'Variant Price', dataColumn: 'CostPrice', transform: { kind: 'amount' } },
    ];
    const id = randomUUID();
    await api()
      .put(`/api/mappings/${id}`)
      .set(auth)
      .send({
        name: 'Stock to Shopify',
        templateHeaders: t.body.headers,
        dataHeaders: d.body.headers,
        mappings,
      })
      .expect(201);
    await api()
      .put(`/api/mappings/${id}`)
      .set(auth)
      .send({
        name: 'Stock → Shopify',
        templateHeaders: t.body.headers,
        dataHeaders: d.body.headers,
        mappings,
      })
      .expect(200);
    const out = await api()
      .post('/api/process')
      .set(auth)
      .send({ templateFileId: t.body.id, dataFileId: d.body.id, mappings })
      .expect(200);
    expect(out.body.csvData).toBe('Handle,Title,Variant Price\na-1,Mug,4.50\nb-2,Cup; large,12.00\n');
    expect(out.body).toMatchObject({ filename: 'mapped_stock.csv', rowsProcessed: 2, limitExceeded: false });
  });

  it('refuses keys to plans without API access, also after a downgrade', async () => {
    const { agent } = await signUp(app, 'free');
    const refused = await agent.post('/api/api-keys').set(H).send({ name: 'x' }).expect(403);
    expect(refused.body.code).toBeDefined();
    const { key, userId } = await keyFor('business');
    await db.query(`UPDATE users SET plan = 'free' WHERE id = $1`, [userId]);
    const res = await request(app.getHttpServer())
      .post('/api/upload/template')
      .set('Authorization', `Bearer ${key}`)
      .attach('file', Buffer.from('A\n'), { filename: 't.csv', contentType: 'text/csv' })
      .expect(403);
    expect(res.body.code).toBe('API_ACCESS_NOT_IN_PLAN');
  });

  it("answers 404 for another tenant's mapping", async () => {
    const a = await keyFor('business');
    const b = await keyFor('business');
    const id = randomUUID();
    await request(app.getHttpServer())
      .put(`/api/mappings/${id}`)
      .set('Authorization', `Bearer ${a.key}`)
      .send({
        name: 'Mine',
        templateHeaders: ['A'],
        dataHeaders: ['B'],
        mappings: [{ templateColumn: 'A', dataColumn: 'B' }],
      })
      .expect(201);
    await request(app.getHttpServer())
      .get(`/api/mappings/${id}`)
      .set('Authorization', `Bearer ${b.key}`)
      .expect(404);
  });
});
