import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { H, signUp, startApp, type Agent } from './support/api-test-app';
import { uploadFile as upload, uploadPair } from './support/uploads';

// POST /api/process and /api/process/preview against real Postgres + Redis: the spec's validations, virtual
// templates, ownership, and the row-limit / monthly-quota arithmetic including concurrent runs at the edge.

function dataRows(n: number): string {
  const lines = ['Full Name,Email Address,Amount'];
  for (let i = 1; i <= n; i++) lines.push(`Person ${i},p${i}@example.com,${i}.50`);
  return lines.join('\n') + '\n';
}

const FULL = [
  { templateColumn: 'Name', dataColumn: 'Full Name' },
  { templateColumn: 'Email', dataColumn: 'Email Address' },
  { templateColumn: 'Total', dataColumn: 'Amount' },
];

describe('POST /api/process (e2e)', () => {
  let app: INestApplication;
  let db: DataSource;
  beforeAll(async () => {
    app = await startApp();
    db = app.get(DataSource);
  });
  afterAll(() => app.close());

  const used = async (userId: string) =>
    Number(
      (
        (await db.query('SELECT monthly_rows_used FROM users WHERE id = $1', [userId])) as {
          monthly_rows_used: number;
        }[]
      )[0].monthly_rows_used,
    );
  const setUsed = (userId: string, n: number) =>
    db.query('UPDATE users SET monthly_rows_used = $2 WHERE id = $1', [userId, n]);

  // The templates here end their lines with LF: the result matches them (issue 20's default).
  it('maps the data onto the template and records usage', async () => {
    const { agent, userId } = await signUp(app);
    const ids = await uploadPair(agent, 'Email,Name,Total\n', dataRows(3));
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({ ...ids, mappings: FULL })
      .expect(200);
    expect(res.body).toMatchObject({
      filename: 'mapped_data.csv',
      rowsProcessed: 3,
      totalRowsInFile: 3,
      limitExceeded: false,
      limitType: null,
      warningCount: 0,
      warnings: [],
    });
    expect(res.body.csvData).toBe(
      'Email,Name,Total\np1@example.com,Person 1,1.50\np2@example.com,Person 2,2.50\np3@example.com,Person 3,3.50\n',
    );
    expect(await used(userId)).toBe(3);
    const history = (await db.query(
      'SELECT rows_processed, filename, file_size_bytes FROM usage_history WHERE user_id = $1',
      [userId],
    )) as {
      rows_processed: number;
      filename: string;
      file_size_bytes: string;
    }[];
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ rows_processed: 3, filename: 'data.csv' });
    expect(Number(history[0].file_size_bytes)).toBe(Buffer.byteLength(dataRows(3)));
  });

  it('applies transforms and reports warnings and control totals', async () => {
    const { agent } = await signUp(app);
    const ids = await uploadPair(
      agent,
      'Date,Amount,Paid\n',
      'When,Value,Settled\n31/01/2024,"1.234,50",yes\n15/02/2024,oops,no\n',
    );
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({
        ...ids,
        mappings: [
          {
            templateColumn: 'Date',
            dataColumn: 'When',
            transform: { kind: 'date', input: 'auto', output: 'MM/DD/YYYY' },
          },
          { templateColumn: 'Amount', dataColumn: 'Value', transform: { kind: 'amount' } },
          {
            templateColumn: 'Paid',
            dataColumn: 'Settled',
            transform: { kind: 'boolean', output: ['TRUE', 'FALSE'] },
          },
        ],
      })
      .expect(200);
    expect(res.body.csvData).toBe('Date,Amount,Paid\n01/31/2024,1234.50,TRUE\n02/15/2024,oops,FALSE\n');
    expect(res.body.warningCount).toBe(1);
    expect(res.body.warnings[0]).toMatchObject({ row: 2, column: 'Amount', value: 'oops' });
    expect(res.body.controlTotals[0]).toMatchObject({
      column: 'Amount',
      kind: 'amount',
      outputTotal: '1234.50',
      unreadable: 1,
    });
  });

  it('answers the spec messages for missing files and unmapped columns, 400 for unknown columns', async () => {
    const { agent } = await signUp(app);
    const ids = await uploadPair(agent, 'Email,Name,Total\n', dataRows(2));
    const missing = await agent
      .post('/api/process')
      .set(H)
      .send({ dataFileId: ids.dataFileId, mappings: FULL })
      .expect(400);
    expect(missing.body).toMatchObject({
      error: 'Please upload both template and data files',
      code: 'MISSING_FILES',
    });
    const unmapped = await agent
      .post('/api/process')
      .set(H)
      .send({ ...ids, mappings: FULL.slice(0, 1) })
      .expect(400);
    expect(unmapped.body.error).toBe('Please map all template columns: Email, Total');
    const unknownData = await agent
      .post('/api/process')
      .set(H)
      .send({ ...ids, mappings: [...FULL.slice(0, 2), { templateColumn: 'Total', dataColumn: 'Nope' }] })
      .expect(400);
    expect(unknownData.body.code).toBe('UNKNOWN_COLUMN');
    const unknownTemplate = await agent
      .post('/api/process')
      .set(H)
      .send({ ...ids, mappings: [...FULL, { templateColumn: 'Extra', dataColumn: 'Amount' }] })
      .expect(400);
    expect(unknownTemplate.body.error).toBe('"Extra" is not a column of the template.');
    const badTransform = await agent
      .post('/api/process')
      .set(H)
      .send({ ...ids, mappings: [FULL[0], FULL[1], { ...FULL[2], transform: { kind: 'rot13' } }] })
      .expect(400);
    expect(badTransform.body.code).toBe('INVALID_MAPPING');
    const badBody = await agent
      .post('/api/process')
      .set(H)
      .send({ ...ids, mappings: 'all' })
      .expect(400);
    expect(badBody.body.code).toBe('VALIDATION_FAILED');
  });

  it("treats another user's or an unknown file id as not found", async () => {
    const a = await signUp(app);
    const b = await signUp(app);
    const ids = await uploadPair(a.agent, 'Email,Name,Total\n', dataRows(2));
    const own = await uploadPair(b.agent, 'Email,Name,Total\n', dataRows(2));
    const r1 = await b.agent
      .post('/api/process')
      .set(H)
      .send({ templateFileId: own.templateFileId, dataFileId: ids.dataFileId, mappings: FULL })
      .expect(404);
    expect(r1.body.code).toBe('FILE_NOT_FOUND');
    await b.agent
      .post('/api/process')
      .set(H)
      .send({ templateFileId: ids.templateFileId, dataFileId: own.dataFileId, mappings: FULL })
      .expect(404);
    await b.agent
      .post('/api/process')
      .set(H)
      .send({ templateFileId: own.templateFileId, dataFileId: 'nope', mappings: FULL })
      .expect(404);
  });

  it('processes against a virtual template given its headers', async () => {
    const { agent } = await signUp(app);
    const d = await upload(agent, 'data', dataRows(2)).expect(201);
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({
        templateFileId: 'virtual-template-saved-1',
        dataFileId: d.body.id,
        templateHeaders: ['Who', 'Mail'],
        mappings: [
          { templateColumn: 'Who', dataColumn: 'Full Name', transform: { kind: 'upper' } },
          { templateColumn: 'Mail', dataColumn: 'Email Address' },
        ],
      })
      .expect(200);
    expect(res.body.csvData).toBe('Who,Mail\r\nPERSON 1,p1@example.com\r\nPERSON 2,p2@example.com\r\n');
    const noHeaders = await agent
      .post('/api/process')
      .set(H)
      .send({ templateFileId: 'virtual-template-x', dataFileId: d.body.id, mappings: [] })
      .expect(400);
    expect(noHeaders.body.code).toBe('TEMPLATE_HEADERS_REQUIRED');
  });

  it('caps a free file at 10,000 rows (limitType rows) and counts only those', async () => {
    const { agent, userId } = await signUp(app);
    const ids = await uploadPair(agent, 'Email,Name,Total\n', dataRows(10_005));
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({ ...ids, mappings: FULL })
      .expect(200);
    expect(res.body).toMatchObject({
      rowsProcessed: 10_000,
      totalRowsInFile: 10_005,
      limitExceeded: true,
      limitType: 'rows',
    });
    expect(res.body.csvData.trimEnd().split('\n')).toHaveLength(10_001);
    expect(await used(userId)).toBe(10_000);
  });

  it('stops at the monthly quota (limitType monthlyQuota), then processes nothing', async () => {
    const { agent, userId } = await signUp(app);
    await setUsed(userId, 50_000 - 4);
    const ids = await uploadPair(agent, 'Email,Name,Total\n', dataRows(10));
    const first = await agent
      .post('/api/process')
      .set(H)
      .send({ ...ids, mappings: FULL })
      .expect(200);
    expect(first.body).toMatchObject({
      rowsProcessed: 4,
      totalRowsInFile: 10,
      limitExceeded: true,
      limitType: 'monthlyQuota',
    });
    expect(await used(userId)).toBe(50_000);
    const second = await agent
      .post('/api/process')
      .set(H)
      .send({ ...ids, mappings: FULL })
      .expect(200);
    expect(second.body).toMatchObject({ rowsProcessed: 0, limitExceeded: true, limitType: 'monthlyQuota' });
    expect(second.body.csvData).toBe('Email,Name,Total\n');
    expect(await used(userId)).toBe(50_000);
  });

  it('never lets two concurrent runs at the quota edge pass the monthly limit', async () => {
    const { agent, userId } = await signUp(app);
    await setUsed(userId, 50_000 - 15);
    const ids = await uploadPair(agent, 'Email,Name,Total\n', dataRows(10));
    const [a, b] = await Promise.all([
      agent
        .post('/api/process')
        .set(H)
        .send({ ...ids, mappings: FULL }),
      agent
        .post('/api/process')
        .set(H)
        .send({ ...ids, mappings: FULL }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const rows = [a.body.rowsProcessed as number, b.body.rowsProcessed as number].sort((x, y) => x - y);
    expect(rows).toEqual([5, 10]);
    expect(await used(userId)).toBe(50_000);
  });

  it("starts a new month's count when the last reset was in an earlier month", async () => {
    const { agent, userId } = await signUp(app);
    await db.query(
      "UPDATE users SET monthly_rows_used = 50000, last_reset_at = now() - interval '40 days' WHERE id = $1",
      [userId],
    );
    // Before any run, the profile already counts this month only (the monthly reset need not have run).
    const before = await agent.get('/api/user/profile').expect(200);
    expect(before.body.monthlyUsage.used).toBe(0);
    expect(before.body.usage.monthlyRowsUsed).toBe(0);
    const ids = await uploadPair(agent, 'Email,Name,Total\n', dataRows(3));
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({ ...ids, mappings: FULL })
      .expect(200);
    expect(res.body.rowsProcessed).toBe(3);
    expect(await used(userId)).toBe(3);
    expect((await agent.get('/api/user/profile').expect(200)).body.monthlyUsage.used).toBe(3);
  });
});

describe('POST /api/process/preview (e2e)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app.close());

  /** POST /api/process/preview with these files and pairs (the status is the caller's to check). */
  const preview = (agent: Agent, ids: { templateFileId: string; dataFileId: string }, mappings: unknown[]) =>
    agent
      .post('/api/process/preview')
      .set(H)
      .send({ ...ids, mappings });

  it('shows the first 10 output rows of an incomplete mapping with warnings, using no quota', async () => {
    const { agent } = await signUp(app);
    const ids = await uploadPair(
      agent,
      'Email,Name,Total\n',
      dataRows(25).replace('Person 3,p3@example.com,3.50', 'Person 3,p3@example.com,n/a'),
    );
    const res = await agent
      .post('/api/process/preview')
      .set(H)
      .send({
        ...ids,
        mappings: [
          { templateColumn: 'Total', dataColumn: 'Amount', transform: { kind: 'amount', decimals: 0 } },
        ],
      })
      .expect(200);
    expect(res.body.headers).toEqual(['Email', 'Name', 'Total']);
    expect(res.body.rows).toHaveLength(10);
    expect(res.body.rows[0]).toEqual(['', '', '2']);
    expect(res.body.rows[2]).toEqual(['', '', 'n/a']);
    expect(res.body.warnings[0]).toMatchObject({ row: 3, column: 'Total', value: 'n/a' });
    expect(res.body.totalRowsInFile).toBe(25);
    const profile = await agent.get('/api/user/profile');
    if (profile.status === 200) expect(profile.body.usage?.monthlyRowsUsed ?? 0).toBe(0);
  });

  it('reads dates that could be either way as day-first in a file of £ amounts, and says so as a column note', async () => {
    const { agent } = await signUp(app);
    const ids = await uploadPair(
      agent,
      'Date,Amount\n',
      'Booking Date,Value\n01/11/2026,£12.50\n02/11/2026,£7.25 CR\n12/11/2026,(£950.00)\n',
    );
    const res = await preview(agent, ids, [
      {
        templateColumn: 'Date',
        dataColumn: 'Booking Date',
        transform: { kind: 'date', input: 'auto', output: 'YYYY-MM-DD' },
      },
      { templateColumn: 'Amount', dataColumn: 'Value', transform: { kind: 'amount' } },
    ]).expect(200);
    expect(res.body.rows).toEqual([
      ['2026-11-01', '12.50'],
      ['2026-11-02', '7.25'],
      ['2026-11-12', '-950.00'],
    ]);
    expect(res.body.warnings).toEqual([
      {
        row: 0,
        column: 'Date',
        value: '',
        reason:
          'Every date in the column could be day-first or month-first; read as day-first (DD/MM) because the Value column holds amounts in £.',
      },
    ]);
  });

  it('names the template column and what to write when a transform is left empty', async () => {
    const { agent } = await signUp(app);
    const ids = await uploadPair(agent, 'Handle,Title\n', 'Product\nBlue Mug\n');
    const res = await preview(agent, ids, [
      { templateColumn: 'Title', dataColumn: 'Product' },
      {
        templateColumn: 'Handle',
        dataColumn: '',
        transform: [{ kind: 'combine', pattern: '' }, { kind: 'slug' }],
      },
    ]).expect(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      error:
        'For "Handle", the combine pattern is empty: write the data columns to join in braces, like {First Name} {Last Name}.',
    });
    const find = await preview(agent, ids, [
      {
        templateColumn: 'Title',
        dataColumn: 'Product',
        transform: { kind: 'replace', find: '', replace: 'x' },
      },
    ]).expect(400);
    expect(find.body.error).toBe('For "Title", the text to find is empty: write what should be replaced.');
    const split = await preview(agent, ids, [
      {
        templateColumn: 'Title',
        dataColumn: 'Product',
        transform: { kind: 'split', separator: '', part: 0 },
      },
    ]).expect(400);
    expect(split.body.error).toBe(
      'For "Title", the split separator is empty: write the text between the parts (a comma, a space, a dash…).',
    );
  });

  it('keeps the request checks: missing files, unknown columns', async () => {
    const { agent } = await signUp(app);
    const ids = await uploadPair(agent, 'Email,Name,Total\n', dataRows(2));
    await agent
      .post('/api/process/preview')
      .set(H)
      .send({ templateFileId: ids.templateFileId, mappings: [] })
      .expect(400);
    const r = await agent
      .post('/api/process/preview')
      .set(H)
      .send({ ...ids, mappings: [{ templateColumn: 'Email', dataColumn: 'X' }] })
      .expect(400);
    expect(r.body.code).toBe('UNKNOWN_COLUMN');
  });
});
