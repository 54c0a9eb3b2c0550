import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import request from 'supertest';
import { BUILT_IN_TEMPLATES } from '@csv-mapper/domain';
import { H, processInBackground, signUp, startApp, waitForJob, type Agent } from './support/api-test-app';
import { asPairs, byColumn, type Suggested } from './support/suggestions';
import { uploadId } from './support/uploads';
import { closeAll, startAppAndWorker } from './support/app-and-worker';

// Issue 27 through the real entry points: upload → POST /api/mappings/suggest → POST /api/process, the
// suggested pairs sent back unchanged (only confidence and reason dropped) and the result's bytes compared.
// Also: columns left empty on purpose, unmappedColumns: "empty", coalesce, an uploaded template recognised
// as a built-in one, ownership (404) and an API key caller.

const builtIn = (id: string) => BUILT_IN_TEMPLATES.find((t) => t.id === id)!;
const headersOf = (id: string) => builtIn(id).columns.map((c) => c.name);

describe('POST /api/mappings/suggest (e2e)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app.close());

  async function suggest(agent: Agent, body: Record<string, unknown>) {
    const res = await agent.post('/api/mappings/suggest').set(H).send(body).expect(200);
    const out = res.body as { mappings: Suggested[]; unmatched: string[]; builtInTemplateId?: string };
    for (const m of out.mappings) {
      expect(typeof m.reason).toBe('string');
      expect(m.reason.length).toBeGreaterThan(0);
      expect(m.confidence).toBeGreaterThanOrEqual(0);
      expect(m.confidence).toBeLessThanOrEqual(1);
    }
    return out;
  }

  it('repro 1: Name, Email, Phone into the built-in Customers template — the optional columns come back empty and the run is accepted', async () => {
    const { agent } = await signUp(app);
    const dataFileId = await uploadId(
      agent,
      'data',
      'Name,Email,Phone\r\nAda Lovelace,ADA@example.com,+44 20 7946 0000\r\n',
    );
    const s = await suggest(agent, { dataFileId, templateId: 'accounting-customers' });
    expect(s.builtInTemplateId).toBe('accounting-customers');
    expect(s.unmatched).toEqual([]);
    const m = byColumn(s.mappings);
    expect([m.get('Name')?.dataColumn, m.get('Email')?.dataColumn, m.get('Phone')?.dataColumn]).toEqual([
      'Name',
      'Email',
      'Phone',
    ]);
    const optional = ['Address', 'City', 'State', 'ZIP', 'Payment Terms', 'Credit Limit'];
    for (const c of optional)
      expect(m.get(c)).toMatchObject({ templateColumn: c, dataColumn: '', empty: true });

    // A pair left empty may leave dataColumn out altogether.
    const pairs = asPairs(s.mappings).map((p) =>
      p.empty ? { templateColumn: p.templateColumn, empty: true } : p,
    );
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({
        dataFileId,
        templateFileId: 'virtual-template-accounting-customers',
        templateHeaders: headersOf('accounting-customers'),
        mappings: pairs,
      })
      .expect(200);
    expect(res.body.csvData).toBe(
      'Name,Email,Phone,Address,City,State,ZIP,Payment Terms,Credit Limit\r\n' +
        'Ada Lovelace,ada@example.com,+44 20 7946 0000,,,,,,\r\n',
    );
    expect(res.body.totals.emptyColumns).toEqual(optional);
    expect(res.body.warningCount).toBe(0);
  });

  it('repros 2 and 6: the built-in bank template gets the inferred debit/credit pair, not a partial name or ""', async () => {
    const { agent } = await signUp(app);
    const dataFileId = await uploadId(
      agent,
      'data',
      'Date,Details,Debit Amount,Credit Amount\n' +
        '03/01/2024,Coffee,12.50,\n' +
        '03/02/2024,Salary,,1000.00\n' +
        '03/03/2024,Rent,650.00,\n',
    );
    const s = await suggest(agent, { dataFileId, templateId: 'accounting-bank-transactions' });
    const amount = byColumn(s.mappings).get('Amount');
    expect(amount).toMatchObject({
      dataColumn: '',
      transform: { kind: 'debitCredit', debitColumn: 'Debit Amount', creditColumn: 'Credit Amount' },
    });
    expect(byColumn(s.mappings).get('Description')?.dataColumn).toBe('Details');
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({
        dataFileId,
        templateFileId: 'virtual-template-accounting-bank-transactions',
        templateHeaders: headersOf('accounting-bank-transactions'),
        mappings: asPairs(s.mappings),
        unmappedColumns: 'empty',
      })
      .expect(200);
    expect(res.body.csvData).toBe(
      'Date,Description,Amount,Reference Number,Account,Memo\r\n' +
        '03/01/2024,Coffee,-12.50,,,\r\n' +
        '03/02/2024,Salary,1000.00,,,\r\n' +
        '03/03/2024,Rent,-650.00,,,\r\n',
    );
    expect(res.body.totals.columns).toEqual([
      expect.objectContaining({ column: 'Amount', kind: 'debitCredit', outputTotal: '337.50' }),
    ]);
  });

  it('repro 7: First Name + Last Name are suggested as a combine into Name', async () => {
    const { agent } = await signUp(app);
    const templateFileId = await uploadId(agent, 'template', 'Name,Email\n');
    const dataFileId = await uploadId(
      agent,
      'data',
      'First Name,Last Name,E-mail\nAda,Lovelace,ada@example.com\nGrace,Hopper,grace@example.com\n',
    );
    const s = await suggest(agent, { dataFileId, templateFileId });
    const name = byColumn(s.mappings).get('Name');
    const steps = Array.isArray(name?.transform) ? name.transform : [name?.transform];
    expect(steps[0]).toEqual({ kind: 'combine', pattern: '{First Name} {Last Name}' });
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({ dataFileId, templateFileId, mappings: asPairs(s.mappings) })
      .expect(200);
    expect(res.body.csvData).toBe(
      'Name,Email\nAda Lovelace,ada@example.com\nGrace Hopper,grace@example.com\n',
    );
  });

  it('repro 7: typed phone columns are suggested as a coalesce (first non-empty) into Phone', async () => {
    const { agent } = await signUp(app);
    const templateFileId = await uploadId(agent, 'template', 'Name,Phone\n');
    const dataFileId = await uploadId(
      agent,
      'data',
      'Name,Mobile Phone,Home Phone,Work Phone\n' +
        'Ada,,020 7946 0000,\n' +
        'Bo,07700 900123,,\n' +
        'Cy,,,0161 496 0000\n',
    );
    const s = await suggest(agent, { dataFileId, templateFileId });
    const phone = byColumn(s.mappings).get('Phone');
    const steps = Array.isArray(phone?.transform) ? phone.transform : [phone?.transform];
    expect(steps[0]).toMatchObject({ kind: 'coalesce' });
    expect([...(steps[0] as { columns: string[] }).columns].sort()).toEqual([
      'Home Phone',
      'Mobile Phone',
      'Work Phone',
    ]);
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({ dataFileId, templateFileId, mappings: asPairs(s.mappings) })
      .expect(200);
    expect(res.body.csvData).toBe('Name,Phone\nAda,020 7946 0000\nBo,07700 900123\nCy,0161 496 0000\n');
  });

  it('coalesce is checked at the edge and by the engine, naming the template column', async () => {
    const { agent } = await signUp(app);
    const templateFileId = await uploadId(agent, 'template', 'Phone\n');
    const dataFileId = await uploadId(agent, 'data', 'Mobile,Home\n,2\n');
    const send = (transform: unknown) =>
      agent
        .post('/api/process')
        .set(H)
        .send({ dataFileId, templateFileId, mappings: [{ templateColumn: 'Phone', transform }] });
    const empty = await send({ kind: 'coalesce', columns: [] }).expect(400);
    expect(empty.body.code).toBe('VALIDATION_FAILED');
    expect(empty.body.error).toMatch(/the coalesce list is empty: name the data columns/);
    const unknown = await send({ kind: 'coalesce', columns: ['Mobile', 'Work'] }).expect(400);
    expect(unknown.body).toEqual({
      code: 'UNKNOWN_COLUMN',
      error: '"Work" is not a column of the data file. Its columns are: Mobile, Home.',
    });
    const ok = await send({ kind: 'coalesce', columns: ['Mobile', 'Home'] }).expect(200);
    expect(ok.body.csvData).toBe('Phone\n2\n');
  });

  it('unmappedColumns: "empty" writes every unmapped column empty and lists them; without it the 400 stays', async () => {
    const { agent } = await signUp(app);
    const templateFileId = await uploadId(agent, 'template', 'Name,Email,Notes\n');
    const dataFileId = await uploadId(agent, 'data', 'Who\nAda\n');
    const body = { dataFileId, templateFileId, mappings: [{ templateColumn: 'Name', dataColumn: 'Who' }] };
    const refused = await agent.post('/api/process').set(H).send(body).expect(400);
    expect(refused.body).toMatchObject({
      code: 'UNMAPPED_COLUMNS',
      error: 'Please map all template columns: Email, Notes',
    });
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({ ...body, unmappedColumns: 'empty' })
      .expect(200);
    expect(res.body.csvData).toBe('Name,Email,Notes\nAda,,\n');
    expect(res.body.totals.emptyColumns).toEqual(['Email', 'Notes']);
    // a pair left empty on purpose counts as mapped
    const marked = await agent
      .post('/api/process')
      .set(H)
      .send({
        ...body,
        mappings: [
          ...body.mappings,
          { templateColumn: 'Email', empty: true },
          { templateColumn: 'Notes', empty: true },
        ],
      })
      .expect(200);
    expect(marked.body.csvData).toBe('Name,Email,Notes\nAda,,\n');
    expect(marked.body.totals.emptyColumns).toEqual(['Email', 'Notes']);
    // the preview takes it too
    const preview = await agent
      .post('/api/process/preview')
      .set(H)
      .send({ ...body, unmappedColumns: 'empty' })
      .expect(200);
    expect(preview.body.rows).toEqual([['Ada', '', '']]);
    const wrong = await agent
      .post('/api/process')
      .set(H)
      .send({ ...body, unmappedColumns: 'skip' })
      .expect(400);
    expect(wrong.body.error).toMatch(/unmappedColumns must be "empty"/);
    const both = await agent
      .post('/api/process')
      .set(H)
      .send({ ...body, mappings: [{ templateColumn: 'Name', dataColumn: 'Who', empty: true }] })
      .expect(400);
    expect(both.body).toMatchObject({ code: 'INVALID_MAPPING' });
    expect(both.body.error).toMatch(/"Name" is left empty on purpose/);
  });

  it("an uploaded template with Shopify's headers is recognised: suggested as Shopify, Handle derived from the Title", async () => {
    const { agent } = await signUp(app);
    // Shopify's columns in another order and case
    const headers = headersOf('shopify-products')
      .reverse()
      .map((h) => (h === 'Title' ? 'title' : h));
    const templateFileId = await uploadId(agent, 'template', headers.join(',') + '\n');
    const dataFileId = await uploadId(agent, 'data', 'Product Name,Price\nBlue Mug!,12.5\nRed Cup,3\n');
    const s = await suggest(agent, { dataFileId, templateFileId });
    expect(s.builtInTemplateId).toBe('shopify-products');
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({
        dataFileId,
        templateFileId,
        mappings: [{ templateColumn: 'title', dataColumn: 'Product Name' }],
        unmappedColumns: 'empty',
      })
      .expect(200);
    const lines = (res.body.csvData as string).split('\n');
    const col = (name: string) => headers.indexOf(name);
    expect(lines[0]).toBe(headers.join(','));
    expect(lines[1].split(',')[col('Handle')]).toBe('blue-mug');
    expect(lines[1].split(',')[col('title')]).toBe('Blue Mug!');
    expect(lines[2].split(',')[col('Handle')]).toBe('red-cup');
    expect(res.body.totals.emptyColumns).not.toContain('Handle');
  });

  it("someone else's file, an unknown built-in and a missing template answer like the other routes", async () => {
    const owner = await signUp(app);
    const other = await signUp(app);
    const dataFileId = await uploadId(owner.agent, 'data', 'Name\nAda\n');
    const templateFileId = await uploadId(owner.agent, 'template', 'Name\n');
    const mine = await uploadId(other.agent, 'data', 'Name\nBo\n');
    const notYours = await other.agent
      .post('/api/mappings/suggest')
      .set(H)
      .send({ dataFileId, templateId: 'accounting-customers' })
      .expect(404);
    expect(notYours.body).toEqual({
      code: 'FILE_NOT_FOUND',
      error: 'Data file not found or expired. Upload it again.',
    });
    const notYourTemplate = await other.agent
      .post('/api/mappings/suggest')
      .set(H)
      .send({ dataFileId: mine, templateFileId })
      .expect(404);
    expect(notYourTemplate.body.error).toBe('Template file not found or expired. Upload it again.');
    const unknown = await owner.agent
      .post('/api/mappings/suggest')
      .set(H)
      .send({ dataFileId, templateId: 'nope' })
      .expect(404);
    expect(unknown.body).toEqual({
      code: 'NOT_FOUND',
      error: 'There is no built-in template "nope". GET /api/templates lists their ids.',
    });
    const none = await owner.agent.post('/api/mappings/suggest').set(H).send({ dataFileId }).expect(400);
    expect(none.body.code).toBe('MISSING_FILES');
    expect(none.body.error).toMatch(/templateFileId .* or templateId/);
    // a cookie caller without the CSRF header is refused, as on the other session routes
    await owner.agent.post('/api/mappings/suggest').send({ dataFileId, templateFileId }).expect(403);
  });

  it('is in the OpenAPI document, with coalesce among the transforms and the empty flag on a pair', async () => {
    const doc = (await request(app.getHttpServer()).get('/api/docs/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
    };
    const op = doc.paths['/api/mappings/suggest'].post;
    expect(JSON.stringify(op.requestBody)).toContain('#/components/schemas/SuggestMappingsRequest');
    expect(JSON.stringify(op.responses['200'])).toContain('#/components/schemas/SuggestMappingsResponse');
    expect(op.responses['404']).toBeDefined();
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.SuggestedMapping.properties)).toEqual(
      expect.arrayContaining(['templateColumn', 'dataColumn', 'transform', 'empty', 'confidence', 'reason']),
    );
    for (const pair of ['MappingPair', 'SuggestedMapping']) {
      expect(JSON.stringify(schemas[pair].properties.transform)).toContain(
        '#/components/schemas/CoalesceTransform',
      );
    }
    expect(schemas.CoalesceTransform.properties.columns).toMatchObject({ type: 'array' });
    expect(schemas.MappingPair.properties.empty).toMatchObject({ type: 'boolean' });
    expect(schemas.ProcessRequest.properties.unmappedColumns).toMatchObject({ enum: ['empty'] });
  });

  it('answers an API key caller (no cookie, no CSRF header)', async () => {
    const { agent } = await signUp(app, 'business');
    const key = (await agent.post('/api/api-keys').set(H).send({ name: 'suggest' }).expect(201)).body
      .key as string;
    const api = () => request(app.getHttpServer());
    const auth = { Authorization: `Bearer ${key}` };
    const attach = (path: string, text: string) =>
      api()
        .post(path)
        .set(auth)
        .attach('file', Buffer.from(text), { filename: 'f.csv', contentType: 'text/csv' })
        .expect(201);
    const t = await attach('/api/upload/template', 'Email,Name\n');
    const d = await attach('/api/upload/data', 'Full Name,Email Address\nAda Lovelace,ada@example.com\n');
    const res = await api()
      .post('/api/mappings/suggest')
      .set(auth)
      .send({ dataFileId: d.body.id, templateFileId: t.body.id })
      .expect(200);
    const m = byColumn(res.body.mappings as Suggested[]);
    expect(m.get('Email')?.dataColumn).toBe('Email Address');
    expect(m.get('Name')?.dataColumn).toBe('Full Name');
    const run = await api()
      .post('/api/process')
      .set(auth)
      .send({ dataFileId: d.body.id, templateFileId: t.body.id, mappings: asPairs(res.body.mappings) })
      .expect(200);
    expect(run.body.csvData).toBe('Email,Name\nada@example.com,Ada Lovelace\n');
  });
});

describe('left empty and coalesce in a saved mapping run as a background job (real worker)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext;
  beforeAll(async () => ({ app, worker } = await startAppAndWorker()));
  afterAll(() => closeAll(worker, app));

  it('mappingId + async + unmappedColumns: "empty": the job writes them empty and its totals list them', async () => {
    const { agent } = await signUp(app, 'business');
    const templateFileId = await uploadId(agent, 'template', 'Name,Email,Phone,Notes\n');
    const dataFileId = await uploadId(
      agent,
      'data',
      'Who,Mobile,Home\nAda,,020 7946 0000\nBo,07700 900123,\n',
    );
    const saved = await agent
      .post('/api/mappings')
      .set(H)
      .send({
        name: 'Contacts',
        templateHeaders: ['Name', 'Email', 'Phone', 'Notes'],
        dataHeaders: ['Who', 'Mobile', 'Home'],
        mappings: [
          { templateColumn: 'Name', dataColumn: 'Who' },
          { templateColumn: 'Email', empty: true },
          { templateColumn: 'Phone', transform: { kind: 'coalesce', columns: ['Mobile', 'Home'] } },
        ],
      })
      .expect(201);
    const view = await processInBackground(agent, {
      dataFileId,
      templateFileId,
      mappingId: saved.body.id,
      async: true,
      unmappedColumns: 'empty',
    });
    expect(view).toMatchObject({ state: 'completed', rowsProcessed: 2 });
    expect((view.totals as { emptyColumns?: string[] }).emptyColumns).toEqual(['Email', 'Notes']);
    const result = await agent.get(`/api/jobs/${view.id}/result`).expect(200);
    expect(result.text).toBe('Name,Email,Phone,Notes\nAda,,020 7946 0000,\nBo,,07700 900123,\n');
  });

  it('a bulk upload takes unmappedColumns: "empty" too', async () => {
    const { agent } = await signUp(app, 'business');
    const templateFileId = await uploadId(agent, 'template', 'Name,Notes\n');
    const first = await uploadId(agent, 'data', 'Who\nAda\n');
    const second = await uploadId(agent, 'data', 'Who\nBo\n');
    const body = {
      templateFileId,
      dataFileIds: [first, second],
      mappings: [{ templateColumn: 'Name', dataColumn: 'Who' }],
    };
    const refused = await agent.post('/api/batches').set(H).send(body).expect(400);
    expect(refused.body.error).toMatch(/Please map all template columns: Notes/);
    const created = await agent
      .post('/api/batches')
      .set(H)
      .send({ ...body, unmappedColumns: 'empty' })
      .expect(202);
    const texts: string[] = [];
    for (const job of created.body.jobs as { jobId: string }[]) {
      expect(await waitForJob(agent, job.jobId)).toMatchObject({ state: 'completed' });
      texts.push((await agent.get(`/api/jobs/${job.jobId}/result`).expect(200)).text);
    }
    expect(texts.sort()).toEqual(['Name,Notes\nAda,\n', 'Name,Notes\nBo,\n']);
  });
});
