import type { INestApplication } from '@nestjs/common';
import { H, signUp, startApp, type Agent } from './support/api-test-app';
import { uploadFile as upload } from './support/uploads';

// Issue 26 through the real api (Postgres + Redis): an amount's sign taken from a direction column as the
// upload infers it, dates read day-first because the file says so elsewhere (a Currency column of GBP),
// and no silent blank when Amount is mapped to one side of a debit/credit pair.

/** The upload answer's inferred transform by data column. */
function inferredOf(body: { columns: { name: string; inferred: unknown }[] }): Record<string, unknown> {
  return Object.fromEntries(body.columns.map((c) => [c.name, c.inferred]));
}

/** ING Netherlands' export: `;`, dates as YYYYMMDD, the sign in "Af Bij", amounts with a decimal comma. */
const ING_NL =
  '"Datum";"Naam / Omschrijving";"Af Bij";"Bedrag (EUR)"\r\n' +
  '"20240102";"Albert Heijn 1234";"Af";"12,50"\r\n' +
  '"20240103";"Werkgever BV salaris";"Bij";"2.500,00"\r\n' +
  '"20240105";"Verhuurder huur";"Af";"950,00"\r\n' +
  '"20240106";"Terugbetaling";"Bij";"3,10"\r\n';

/** Monzo's export: every date could be day- or month-first; the Currency column says GBP. */
const MONZO =
  'Transaction ID,Date,Time,Name,Amount,Currency\n' +
  'tx_01,10/08/2024,09:12:01,Tesco,-12.50,GBP\n' +
  'tx_02,11/08/2024,13:40:55,Pret A Manger,-3.10,GBP\n' +
  'tx_03,12/08/2024,08:00:00,Salary,2500.00,GBP\n';

describe('Direction signs, date hints and silent blanks (e2e)', () => {
  let app: INestApplication;
  let agent: Agent;
  let templateFileId: string;
  beforeAll(async () => {
    app = await startApp();
    ({ agent } = await signUp(app));
    templateFileId = (await upload(agent, 'template', 'Date,Description,Amount\n').expect(201)).body
      .id as string;
  });
  afterAll(() => app.close());

  it('ING NL: the upload infers the sign from "Af Bij"; processing with it writes money out negative', async () => {
    const d = await upload(agent, 'data', ING_NL).expect(201);
    const inferred = inferredOf(d.body);
    expect(inferred['Bedrag (EUR)']).toEqual({
      kind: 'amount',
      decimals: 2,
      decimalSeparator: ',',
      sign: { column: 'Af Bij', negative: ['Af'] },
    });
    expect(inferred['Af Bij']).toBeNull();
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({
        templateFileId,
        dataFileId: d.body.id,
        mappings: [
          { templateColumn: 'Date', dataColumn: 'Datum', transform: inferred.Datum },
          { templateColumn: 'Description', dataColumn: 'Naam / Omschrijving' },
          { templateColumn: 'Amount', dataColumn: 'Bedrag (EUR)', transform: inferred['Bedrag (EUR)'] },
        ],
      })
      .expect(200);
    expect(Buffer.from(res.body.csvData as string, 'utf8')).toEqual(
      Buffer.from(
        'Date,Description,Amount\n' +
          '2024-01-02,Albert Heijn 1234,-12.50\n' +
          '2024-01-03,Werkgever BV salaris,2500.00\n' +
          '2024-01-05,Verhuurder huur,-950.00\n' +
          '2024-01-06,Terugbetaling,3.10\n',
      ),
    );
    expect(res.body.warnings).toEqual([]);
    expect(res.body.totals.columns).toEqual([
      expect.objectContaining({
        column: 'Amount',
        sourceTotal: '1540.60',
        outputTotal: '1540.60',
        values: 4,
      }),
    ]);
  });

  it('flips a card export’s charges with invert, and refuses a sign column the file lacks', async () => {
    const d = await upload(
      agent,
      'data',
      'Posted,Merchant,Charge\n2024-03-01,Coffee,4.20\n2024-03-02,Refund,-10.00\n',
    );
    const pairs = (transform: unknown) => [
      { templateColumn: 'Date', dataColumn: 'Posted' },
      { templateColumn: 'Description', dataColumn: 'Merchant' },
      { templateColumn: 'Amount', dataColumn: 'Charge', transform },
    ];
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({ templateFileId, dataFileId: d.body.id, mappings: pairs({ kind: 'amount', invert: true }) })
      .expect(200);
    expect(res.body.csvData).toBe(
      'Date,Description,Amount\n2024-03-01,Coffee,-4.20\n2024-03-02,Refund,10.00\n',
    );
    const missing = await agent
      .post('/api/process')
      .set(H)
      .send({
        templateFileId,
        dataFileId: d.body.id,
        mappings: pairs({ kind: 'amount', sign: { column: 'Af Bij', negative: ['Af'] } }),
      })
      .expect(400);
    expect(missing.body).toEqual({
      code: 'INVALID_MAPPING',
      error:
        'The sign column "Af Bij" for "Amount" is not a column of the data file. Its columns are: Posted, Merchant, Charge.',
    });
    const empty = await agent
      .post('/api/process')
      .set(H)
      .send({
        templateFileId,
        dataFileId: d.body.id,
        mappings: pairs({ kind: 'amount', sign: { column: 'Merchant', negative: [] } }),
      })
      .expect(400);
    expect(empty.body.code).toBe('VALIDATION_FAILED');
    expect(empty.body.error).toContain('list the values of the column that mean money out');
  });

  it('Monzo: 10/08/2024 beside a Currency column of GBP is read day-first, and the note says why', async () => {
    const d = await upload(agent, 'data', MONZO).expect(201);
    // the upload's inference and the run decide alike
    expect(inferredOf(d.body).Date).toEqual({ kind: 'date', input: 'DD/MM/YYYY', output: 'YYYY-MM-DD' });
    const res = await agent
      .post('/api/process/preview')
      .set(H)
      .send({
        templateFileId,
        dataFileId: d.body.id,
        mappings: [
          {
            templateColumn: 'Date',
            dataColumn: 'Date',
            transform: { kind: 'date', input: 'auto', output: 'YYYY-MM-DD' },
          },
          { templateColumn: 'Description', dataColumn: 'Name' },
          { templateColumn: 'Amount', dataColumn: 'Amount', transform: { kind: 'amount' } },
        ],
      })
      .expect(200);
    expect(res.body.rows).toEqual([
      ['2024-08-10', 'Tesco', '-12.50'],
      ['2024-08-11', 'Pret A Manger', '-3.10'],
      ['2024-08-12', 'Salary', '2500.00'],
    ]);
    expect(res.body.warnings).toEqual([
      {
        row: 0,
        column: 'Date',
        value: '',
        reason:
          'Every date in the column could be day-first or month-first; read as day-first (DD/MM) because the Currency column holds GBP.',
      },
    ]);
  });

  it('Amount mapped to "Credit Amount" alone warns on every debit row instead of writing a silent blank', async () => {
    const d = await upload(
      agent,
      'data',
      'Date,Description,Debit Amount,Credit Amount\n' +
        '2024-02-01,Coffee,3.50,\n' +
        '2024-02-02,Salary,,2500.00\n' +
        '2024-02-03,Rent,950.00,\n' +
        '2024-02-04,Nothing,,\n',
    ).expect(201);
    const pair = {
      kind: 'debitCredit',
      debitColumn: 'Debit Amount',
      creditColumn: 'Credit Amount',
      decimals: 2,
    };
    expect(inferredOf(d.body)['Credit Amount']).toEqual(pair);
    const send = (amount: unknown) =>
      agent
        .post('/api/process')
        .set(H)
        .send({
          templateFileId,
          dataFileId: d.body.id,
          mappings: [
            { templateColumn: 'Date', dataColumn: 'Date' },
            { templateColumn: 'Description', dataColumn: 'Description' },
            amount,
          ],
        })
        .expect(200);
    const alone = await send({
      templateColumn: 'Amount',
      dataColumn: 'Credit Amount',
      transform: { kind: 'amount' },
    });
    expect(alone.body.csvData).toBe(
      'Date,Description,Amount\n2024-02-01,Coffee,\n2024-02-02,Salary,2500.00\n2024-02-03,Rent,\n2024-02-04,Nothing,\n',
    );
    const fix = 'nothing was written. Map "Amount" with Debit + credit to keep both sides.';
    expect(alone.body.warnings).toEqual([
      {
        row: 1,
        column: 'Amount',
        value: '',
        reason: `Empty here, but "Debit Amount" has 3.50 on this row: ${fix}`,
      },
      {
        row: 3,
        column: 'Amount',
        value: '',
        reason: `Empty here, but "Debit Amount" has 950.00 on this row: ${fix}`,
      },
    ]);
    // mapped as the pair the upload inferred: both sides kept, and the row with neither is named
    const both = await send({ templateColumn: 'Amount', dataColumn: '', transform: pair });
    expect(both.body.csvData).toBe(
      'Date,Description,Amount\n2024-02-01,Coffee,-3.50\n2024-02-02,Salary,2500.00\n2024-02-03,Rent,-950.00\n2024-02-04,Nothing,\n',
    );
    expect(both.body.warnings).toEqual([
      {
        row: 4,
        column: 'Amount',
        value: '',
        reason: 'Both "Debit Amount" and "Credit Amount" are empty: no amount was written.',
      },
    ]);
  });
});
