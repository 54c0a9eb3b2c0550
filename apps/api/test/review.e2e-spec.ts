import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { BUILT_IN_TEMPLATES, templateHeaders } from '@csv-mapper/domain';
import { H, signUp, type Agent, waitForJob } from './support/api-test-app';
import { closeAll, startAppAndWorker } from './support/app-and-worker';

// Issue 22 through the real entry points: template rules on a built-in template, the review routes on a
// sync run's reviewId and on a background job, and the corrected run through the real worker.

const shopify = BUILT_IN_TEMPLATES.find((t) => t.id === 'shopify-products')!;
const SHOPIFY = templateHeaders(shopify);

/** Title and Price mapped; Handle left to the template (a slug of the Title); the rest blank. */
function shopifyMappings() {
  return SHOPIFY.filter((c) => c !== 'Handle').map((c) =>
    c === 'Title'
      ? { templateColumn: c, dataColumn: 'Product' }
      : c === 'Variant Price'
        ? { templateColumn: c, dataColumn: 'Price', transform: { kind: 'amount', decimals: 2 } }
        : { templateColumn: c, dataColumn: '', transform: { kind: 'constant', value: '' } },
  );
}

const blanks = (n: number) => ','.repeat(n);
/** A Shopify output row: Handle, Title, 11 blanks, Variant Price, 3 blanks (17 columns). */
const row = (handle: string, title: string, price: string) =>
  `${handle},${title}${blanks(11)},${price}${blanks(3)}`;

describe('template rules and review/fix (real Postgres, Redis, worker)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext;

  beforeAll(async () => ({ app, worker } = await startAppAndWorker()));
  afterAll(() => closeAll(worker, app));

  async function upload(agent: Agent, csv: string, name = 'products.csv'): Promise<string> {
    const d = await agent
      .post('/api/upload')
      .set(H)
      .field('type', 'data')
      .attach('file', Buffer.from(csv), name)
      .expect(201);
    return d.body.id as string;
  }

  async function waitDone(agent: Agent, jobId: string) {
    const view = await waitForJob(agent, jobId);
    expect(view.state).toBe('completed');
    return view;
  }

  const processShopify = (agent: Agent, dataFileId: string, extra: Record<string, unknown> = {}) =>
    agent
      .post('/api/process')
      .set(H)
      .send({
        templateFileId: 'virtual-template-shopify-products',
        templateHeaders: SHOPIFY,
        dataFileId,
        mappings: shopifyMappings(),
        ...extra,
      });

  it('GET /api/templates returns each column with its rules (and Shopify Handle made from the Title)', async () => {
    const res = await (await signUp(app, 'free')).agent.get('/api/templates').expect(200);
    const shop = res.body.find((t: { id: string }) => t.id === 'shopify-products');
    const col = (t: { columns: { name: string }[] }, name: string) => t.columns.find((c) => c.name === name);
    expect(col(shop, 'Handle')).toMatchObject({
      rules: { required: true, maxLength: 255 },
      defaultTransform: { kind: 'slug' },
      derive: { from: 'Title', transform: [{ kind: 'slug' }] },
    });
    expect(col(shop, 'Variant Price')).toMatchObject({ rules: { type: 'amount' } });
    expect(col(shop, 'Status')).toMatchObject({ rules: { allowed: ['active', 'draft', 'archived'] } });
    const customers = res.body.find((t: { id: string }) => t.id === 'accounting-customers');
    expect(col(customers, 'Name')).toMatchObject({
      rules: { required: true, maxLength: 100 },
      defaultTransform: [{ kind: 'trim' }, { kind: 'truncate', length: 100 }],
    });
  });

  it("applies Shopify's rules: Handle is a slug of the Title, an empty Title and a price with a letter are problems", async () => {
    const { agent } = await signUp(app, 'free');
    const id = await upload(agent, 'Product,Price\nBlue Mug,12.50\n,9.99\nRed Cup,1x2.00\n');
    const res = await processShopify(agent, id).expect(200);
    expect(res.body.csvData.split('\r\n').slice(0, 4)).toEqual([
      SHOPIFY.join(','),
      row('blue-mug', 'Blue Mug', '12.50'),
      row('', '', '9.99'),
      row('red-cup', 'Red Cup', '1x2.00'),
    ]);
    // Row 2: Title and Handle empty (required); row 3: not an amount (the transform) and the type rule.
    expect(res.body.warningsByRule).toEqual({ required: 2, type: 1, other: 1 });
    expect(res.body.warnings).toEqual(
      expect.arrayContaining([
        { row: 2, column: 'Title', value: '', reason: 'Required value is empty', rule: 'required' },
        expect.objectContaining({ row: 3, column: 'Variant Price', value: '1x2.00', rule: 'type' }),
      ]),
    );
    expect(res.body.reviewId).toMatch(/^sync-/);
  });

  it('refuses rules that cannot work, and checks a request rule (maxLength, allowed) on every row', async () => {
    const { agent } = await signUp(app, 'free');
    const id = await upload(agent, 'Product,Price\nA very long product title,1\nOK,2\n');
    const bad = await processShopify(agent, id, { templateRules: { Title: { maxLength: 0 } } }).expect(400);
    expect(bad.body.error).toMatch(/maxLength/);
    const unknown = await processShopify(agent, id, { templateRules: { Nope: { required: true } } }).expect(
      400,
    );
    expect(unknown.body).toMatchObject({ code: 'INVALID_MAPPING', error: expect.stringContaining('"Nope"') });
    const extra = await processShopify(agent, id, { templateRules: { Title: { color: 'red' } } }).expect(400);
    expect(extra.body.error).toMatch(/color/);
    const ok = await processShopify(agent, id, {
      templateRules: { Title: { maxLength: 10, allowed: ['OK'] } },
    }).expect(200);
    expect(ok.body.warningsByRule).toEqual({ maxLength: 1, allowed: 1 });
    expect(ok.body.warnings).toEqual([
      expect.objectContaining({ row: 1, column: 'Title', rule: 'maxLength' }),
      expect.objectContaining({ row: 1, column: 'Title', rule: 'allowed' }),
    ]);
  });

  it('pages problems, stores a patch, and the corrected run (real worker) changes exactly the named cells', async () => {
    const { agent } = await signUp(app, 'free');
    const id = await upload(agent, 'Product,Price\nBlue Mug,12.50\n,9.99\nRed Cup,1x2.00\nOld Plate,4\n');
    const first = await processShopify(agent, id).expect(200);
    const reviewId = first.body.reviewId as string;

    const all = await agent.get(`/api/jobs/${reviewId}/issues`).expect(200);
    expect(all.body).toMatchObject({
      total: 4,
      byRule: { required: 2, type: 1, other: 1 },
      nextCursor: null,
    });
    const page1 = await agent.get(`/api/jobs/${reviewId}/issues?rule=required&limit=1`).expect(200);
    expect(page1.body.issues).toEqual([
      { row: 2, column: 'Handle', rule: 'required', value: '', message: 'Required value is empty' },
    ]);
    const page2 = await agent
      .get(`/api/jobs/${reviewId}/issues?rule=required&limit=1&cursor=${page1.body.nextCursor}`)
      .expect(200);
    expect(page2.body).toMatchObject({
      issues: [expect.objectContaining({ column: 'Title' })],
      nextCursor: null,
    });
    const byColumn = await agent
      .get(`/api/jobs/${reviewId}/issues?column=Variant%20Price&rule=type`)
      .expect(200);
    expect(byColumn.body.issues).toEqual([expect.objectContaining({ row: 3, value: '1x2.00' })]);
    await agent.get(`/api/jobs/${reviewId}/issues?rule=nope`).expect(400);

    // An edit the rules refuse is stored but reported; a later edit of the same cell wins.
    const bad = await agent
      .patch(`/api/jobs/${reviewId}/cells`)
      .set(H)
      .send({ edits: [{ row: 3, column: 'Variant Price', value: 'abc' }] })
      .expect(200);
    expect(bad.body.problems).toEqual([
      expect.objectContaining({ row: 3, column: 'Variant Price', rule: 'type' }),
    ]);
    const patched = await agent
      .patch(`/api/jobs/${reviewId}/cells`)
      .set(H)
      .send({
        edits: [
          { row: 2, column: 'Title', value: 'Green Bowl' },
          { row: 3, column: 'Variant Price', value: '12.00' },
        ],
        deleteRows: [4],
      })
      .expect(200);
    expect(patched.body).toEqual({ cellsEdited: 2, rowsEdited: 2, rowsDeleted: 1, problems: [] });
    await agent
      .patch(`/api/jobs/${reviewId}/cells`)
      .set(H)
      .send({ edits: [{ row: 1, column: 'Nope', value: 'x' }] })
      .expect(400);
    await agent
      .patch(`/api/jobs/${reviewId}/cells`)
      .set(H)
      .send({ edits: [{ row: 99, column: 'Title', value: 'x' }] })
      .expect(400)
      .expect((r) => expect(r.body.code).toBe('INVALID_ROW'));

    // Someone else's id is not found, on every review route.
    const other = await signUp(app, 'free');
    await other.agent.get(`/api/jobs/${reviewId}/issues`).expect(404);
    await other.agent
      .patch(`/api/jobs/${reviewId}/cells`)
      .set(H)
      .send({ deleteRows: [1] })
      .expect(404);
    await other.agent.post(`/api/jobs/${reviewId}/rerun`).set(H).expect(404);

    const rerun = await agent.post(`/api/jobs/${reviewId}/rerun`).set(H).expect(202);
    expect(rerun.body).toEqual({ jobId: expect.any(String), status: 'queued' });
    const view = await waitDone(agent, rerun.body.jobId);
    expect(view).toMatchObject({
      warnings: 0,
      corrections: { cellsEdited: 2, rowsEdited: 2, rowsDeleted: 1 },
    });
    const csv = (await agent.get(view.resultUrl).expect(200)).text;
    // The expected file: row 2's Title edited (its Handle follows), row 3's price edited, row 4 gone.
    const expected = [
      SHOPIFY.join(','),
      row('blue-mug', 'Blue Mug', '12.50'),
      row('green-bowl', 'Green Bowl', '9.99'),
      row('red-cup', 'Red Cup', '12.00'),
      '',
    ].join('\r\n');
    expect(csv).toBe(expected);
    // Nothing but the named cells (and the derived Handle, and the deleted row) changed.
    const before = (first.body.csvData as string).split('\r\n');
    const after = csv.split('\r\n');
    expect(after[1]).toBe(before[1]);
    expect(after[2].split(',').slice(2)).toEqual(before[2].split(',').slice(2));
    expect(after[3].split(',').slice(0, 13)).toEqual(before[3].split(',').slice(0, 13));

    // The corrected run is a job too: its problems (none) page from the same route.
    const clean = await agent.get(`/api/jobs/${rerun.body.jobId}/issues`).expect(200);
    expect(clean.body).toMatchObject({ issues: [], total: 0 });
    // The same patch again is the same corrected run.
    const again = await agent.post(`/api/jobs/${reviewId}/rerun`).set(H).expect(202);
    expect(again.body.jobId).toBe(rerun.body.jobId);
  });

  it('a background job of a saved mapping with rules: problems paged, rerun carries the patch', async () => {
    const { agent } = await signUp(app, 'business');
    const t = await agent
      .post('/api/upload')
      .set(H)
      .field('type', 'template')
      .attach('file', Buffer.from('Name,Email\n'), 't.csv')
      .expect(201);
    const saved = await agent
      .post('/api/mappings')
      .set(H)
      .send({
        name: 'Contacts',
        templateHeaders: ['Name', 'Email'],
        dataHeaders: ['First', 'Last', 'Mail'],
        mappings: [
          {
            templateColumn: 'Name',
            dataColumn: '',
            transform: [
              { kind: 'combine', pattern: '{First} {Last}' },
              { kind: 'truncate', length: 8 },
            ],
          },
          { templateColumn: 'Email', dataColumn: 'Mail', transform: { kind: 'lower' } },
        ],
        templateRules: { Email: { required: true, type: 'email', unique: true } },
      })
      .expect(201);
    expect(saved.body.templateRules).toEqual({ Email: { required: true, type: 'email', unique: true } });
    const id = await upload(
      agent,
      'First,Last,Mail\nAna,Cruz,ANA@x.org\nBob,Longname,not-mail\nCy,,ana@x.org\n',
    );
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({ templateFileId: t.body.id, dataFileId: id, mappingId: saved.body.id, async: true })
      .expect(202);
    const view = await waitDone(agent, res.body.jobId);
    expect(view.warningsByRule).toEqual({ truncate: 1, type: 1, unique: 1 });
    const issues = await agent.get(`/api/jobs/${res.body.jobId}/issues`).expect(200);
    expect(issues.body.issues).toEqual([
      expect.objectContaining({ row: 2, column: 'Name', rule: 'truncate', value: 'Bob Longname' }),
      expect.objectContaining({ row: 2, column: 'Email', rule: 'type', value: 'not-mail' }),
      expect.objectContaining({
        row: 3,
        column: 'Email',
        rule: 'unique',
        message: 'The same value is in row 1; each row needs its own',
      }),
    ]);
    await agent
      .patch(`/api/jobs/${res.body.jobId}/cells`)
      .set(H)
      .send({ edits: [{ row: 2, column: 'Email', value: 'bob@x.org' }], deleteRows: [3] })
      .expect(200);
    const rerun = await agent.post(`/api/jobs/${res.body.jobId}/rerun`).set(H).expect(202);
    const fixed = await waitDone(agent, rerun.body.jobId);
    expect(fixed.warningsByRule).toEqual({ truncate: 1 });
    const csv = (await agent.get(fixed.resultUrl).expect(200)).text;
    // Written like the uploaded template (LF line ends).
    expect(csv).toBe('Name,Email\nAna Cruz,ana@x.org\nBob Long,bob@x.org\n');
  });
});
