import type { INestApplication } from '@nestjs/common';
import { H, signUp, startApp, type Agent } from './support/api-test-app';

// Source drift (issue 30) through the real api: a mapping saved from October's bank statement, November's
// statement uploaded with "Amount" renamed "Amount (EUR)" and a new "Category" column — the upload answer
// names the rename and the added column and carries the adapted pairs, which run to the right bytes; a
// column renamed beyond recognition shows as removed + added and its template column is left to map.

function upload(agent: Agent, type: 'template' | 'data', content: string, filename = `${type}.csv`) {
  return agent
    .post('/api/upload')
    .set(H)
    .field('type', type)
    .attach('file', Buffer.from(content, 'utf8'), { filename, contentType: 'text/csv' });
}

const OCTOBER =
  'Date,Description,Amount,Balance,Reference\r\n' +
  '29/10/2026,Coffee shop,-3.50,1496.50,TX-1001\r\n' +
  '30/10/2026,Salary,2500.00,3996.50,TX-1002\r\n' +
  '31/10/2026,Rent,-900.00,3096.50,TX-1003\r\n';

const NOVEMBER =
  'Date,Description,Amount (EUR),Balance,Reference,Category\r\n' +
  '01/11/2026,Bakery,-4.20,3092.30,TX-1004,Food\r\n' +
  '02/11/2026,Refund,12.99,3105.29,TX-1005,Shopping\r\n' +
  '03/11/2026,Electricity,-61.05,3044.24,TX-1006,Utilities\r\n';

const TEMPLATE = 'Booking Date,Payee,Value\r\n';

const PAIRS = [
  {
    templateColumn: 'Booking Date',
    dataColumn: 'Date',
    transform: { kind: 'date', input: 'DD/MM/YYYY', output: 'YYYY-MM-DD' },
  },
  { templateColumn: 'Payee', dataColumn: 'Description' },
  { templateColumn: 'Value', dataColumn: 'Amount', transform: { kind: 'amount', decimals: 2 } },
];

describe('source drift on upload (e2e)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app.close());

  async function savedFromOctober(agent: Agent): Promise<string> {
    const oct = await upload(agent, 'data', OCTOBER).expect(201);
    const saved = await agent
      .post('/api/mappings')
      .set(H)
      .send({
        name: 'Bank to books',
        templateHeaders: ['Booking Date', 'Payee', 'Value'],
        dataHeaders: oct.body.headers,
        mappings: PAIRS,
      })
      .expect(201);
    return saved.body.id as string;
  }

  it('names the renamed and the added column, and the adapted mapping runs to the right bytes', async () => {
    const { agent } = await signUp(app, 'pro');
    const id = await savedFromOctober(agent);

    // the same source again: recognised with empty changes and no adapted mapping
    const same = await upload(agent, 'data', OCTOBER).expect(201);
    expect(same.body.matchingMappings).toEqual([
      {
        id,
        name: 'Bank to books',
        score: 1,
        changes: { added: [], removed: [], renamed: [] },
        missingColumns: [],
      },
    ]);

    const nov = await upload(agent, 'data', NOVEMBER).expect(201);
    expect(nov.body.matchingMappings).toEqual([
      {
        id,
        name: 'Bank to books',
        score: 0.83,
        changes: { added: ['Category'], removed: [], renamed: [{ from: 'Amount', to: 'Amount (EUR)' }] },
        missingColumns: [],
        adaptedMapping: [
          PAIRS[0],
          PAIRS[1],
          { templateColumn: 'Value', dataColumn: 'Amount (EUR)', transform: { kind: 'amount', decimals: 2 } },
        ],
      },
    ]);

    // the saved pairs as they are would read a column November's file does not have
    const t = await upload(agent, 'template', TEMPLATE).expect(201);
    const stale = await agent
      .post('/api/process')
      .set(H)
      .send({ templateFileId: t.body.id, dataFileId: nov.body.id, mappings: PAIRS });
    expect(stale.status).toBeGreaterThanOrEqual(400);
    expect(stale.status).toBeLessThan(500);

    const run = await agent
      .post('/api/process')
      .set(H)
      .send({
        templateFileId: t.body.id,
        dataFileId: nov.body.id,
        mappings: nov.body.matchingMappings[0].adaptedMapping,
      })
      .expect(200);
    expect(run.body.csvData).toBe(
      'Booking Date,Payee,Value\r\n' +
        '2026-11-01,Bakery,-4.20\r\n' +
        '2026-11-02,Refund,12.99\r\n' +
        '2026-11-03,Electricity,-61.05\r\n',
    );
  });

  it('a column renamed beyond recognition is removed + added, and its template column is left to map', async () => {
    const { agent } = await signUp(app, 'pro');
    const id = await savedFromOctober(agent);
    // "Field 3" holds amounts, but a name that says nothing is no confident rename of "Amount"
    const unnamed =
      'Date,Description,Field 3,Balance,Reference\r\n' +
      '01/11/2026,Bakery,-4.20,3092.30,TX-1004\r\n' +
      '02/11/2026,Refund,12.99,3105.29,TX-1005\r\n';
    const d = await upload(agent, 'data', unnamed).expect(201);
    expect(d.body.matchingMappings).toEqual([
      {
        id,
        name: 'Bank to books',
        score: 0.67,
        changes: { added: ['Field 3'], removed: ['Amount'], renamed: [] },
        missingColumns: ['Amount'],
        adaptedMapping: [PAIRS[0], PAIRS[1]],
      },
    ]);

    // a file that shares too few columns is not this mapping's source
    const other = 'Date,Memo,Field 3\r\n01/11/2026,Bakery,-4.20\r\n';
    const o = await upload(agent, 'data', other).expect(201);
    expect(o.body.matchingMappings).toEqual([]);
  });
});
