import type { INestApplication } from '@nestjs/common';
import { H, signUp, startApp } from './support/api-test-app';
import { asPairs, byColumn, type Suggested } from './support/suggestions';
import { uploadId } from './support/uploads';

// Bank rows right by the product's own reading and suggestion (issues 26 and 27), each a file shape of its
// own: upload → POST /api/mappings/suggest for the template Date,Description,Amount → POST /api/process
// with the suggestion sent back unchanged, and the result's bytes compared. The rules: an amount column of
// a file without a header row holds amounts (never an IBAN) and is not a running balance; two amount
// columns filled alternately are a debit/credit pair; Gross (not Net) is a payment provider's amount; a
// few lines of words in a date column do not make it text; ids are never a description.

describe('bank rows from real-shaped files (e2e)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app.close());

  /** The product's own answer for `data`: the suggestion, and the output of processing it unchanged. */
  async function mapped(data: string): Promise<{ csv: string; mappings: Map<string, Suggested> }> {
    const { agent } = await signUp(app);
    const templateFileId = await uploadId(agent, 'template', 'Date,Description,Amount\n');
    const dataFileId = await uploadId(agent, 'data', data);
    const s = await agent
      .post('/api/mappings/suggest')
      .set(H)
      .send({ dataFileId, templateFileId })
      .expect(200);
    const suggested = s.body.mappings as Suggested[];
    const pairs = asPairs(suggested);
    const res = await agent
      .post('/api/process')
      .set(H)
      .send({ dataFileId, templateFileId, mappings: pairs })
      .expect(200);
    return {
      csv: res.body.csvData as string,
      mappings: byColumn(suggested),
    };
  }

  it('no header row: the signed amount, not the account IBAN before it nor the running balance beside it', async () => {
    // account, date, payee, balance after the transaction, amount, currency
    const rows = [
      ['GB29NWBK60161331926819', '13/03/2024', 'Corner Shop Groceries', '954.80', '-45.20'],
      ['GB29NWBK60161331926819', '14/03/2024', 'Monthly Salary Acme Ltd', '3154.80', '2200.00'],
      ['GB29NWBK60161331926819', '18/03/2024', 'Electricity Direct Debit', '3066.35', '-88.45'],
      ['GB29NWBK60161331926819', '19/03/2024', 'Refund Online Store', '3086.35', '20.00'],
      ['GB29NWBK60161331926819', '21/03/2024', 'Train Tickets Return', '3031.35', '-55.00'],
    ];
    const { csv, mappings } = await mapped(rows.map((r) => [...r, 'GBP'].join(',')).join('\n') + '\n');
    expect(mappings.get('Amount')?.dataColumn).toBe('Column 5');
    expect(csv).toBe(
      'Date,Description,Amount\n' +
        '2024-03-13,Corner Shop Groceries,-45.20\n' +
        '2024-03-14,Monthly Salary Acme Ltd,2200.00\n' +
        '2024-03-18,Electricity Direct Debit,-88.45\n' +
        '2024-03-19,Refund Online Store,20.00\n' +
        '2024-03-21,Train Tickets Return,-55.00\n',
    );
  });

  it('no header row: a money-out and a money-in column filled by turns become one signed amount (the minus side is money out)', async () => {
    // date; text; credit (positive); debit (already negative); currency — the sign decides, not the order
    const data =
      '12.02.2024;Gutschrift Gehalt Februar;2.400,00;;EUR\n' +
      '13.02.2024;Kartenzahlung Baeckerei am Markt;;-3,80;EUR\n' +
      '14.02.2024;Lastschrift Stadtwerke Strom;;-61,00;EUR\n' +
      '15.02.2024;Dauerauftrag Miete Wohnung;;-780,00;EUR\n' +
      '16.02.2024;Gutschrift Rueckerstattung;12,99;;EUR\n';
    const { csv, mappings } = await mapped(data);
    expect(mappings.get('Amount')?.transform).toMatchObject({
      kind: 'debitCredit',
      debitColumn: 'Column 4',
      creditColumn: 'Column 3',
    });
    expect(csv).toBe(
      'Date,Description,Amount\n' +
        '2024-02-12,Gutschrift Gehalt Februar,2400.00\n' +
        '2024-02-13,Kartenzahlung Baeckerei am Markt,-3.80\n' +
        '2024-02-14,Lastschrift Stadtwerke Strom,-61.00\n' +
        '2024-02-15,Dauerauftrag Miete Wohnung,-780.00\n' +
        '2024-02-16,Gutschrift Rueckerstattung,12.99\n',
    );
  });

  it('no header row: unsigned paid-out and paid-in columns by turns — the left one is money out; the balance after them is left alone', async () => {
    const data =
      '2024-05-01,Card payment Bakery,4.50,,995.50\n' +
      '2024-05-02,Transfer from savings,,250.00,1245.50\n' +
      '2024-05-03,Card payment Pharmacy,12.30,,1233.20\n' +
      '2024-05-06,Cash withdrawal ATM,100.00,,1133.20\n';
    const { csv } = await mapped(data);
    expect(csv).toBe(
      'Date,Description,Amount\n' +
        '2024-05-01,Card payment Bakery,-4.50\n' +
        '2024-05-02,Transfer from savings,250.00\n' +
        '2024-05-03,Card payment Pharmacy,-12.30\n' +
        '2024-05-06,Cash withdrawal ATM,-100.00\n',
    );
  });

  it("a payment provider's export: Amount is Gross (what was paid), not Net after the fee; the counterparty describes it, not the transaction id", async () => {
    const data =
      'Date,Transaction code,Counterparty,Item title,SKU,Quantity,Gross,Fee,Net,Currency\n' +
      '2024-04-02,7XK20931LQ884411A,Jane Doe,Blue mug,MUG-01,2,30.00,-1.17,28.83,EUR\n' +
      '2024-04-03,2BB10388MM002913C,Paper Supplies Co,,,,-120.00,0.00,-120.00,EUR\n' +
      '2024-04-05,9QQ55120TT773300D,John Roe,Red mug,MUG-02,1,15.00,-0.69,14.31,EUR\n';
    const { csv, mappings } = await mapped(data);
    expect(mappings.get('Amount')?.dataColumn).toBe('Gross');
    expect(mappings.get('Description')?.dataColumn).toBe('Counterparty');
    expect(csv).toBe(
      'Date,Description,Amount\n' +
        '2024-04-02,Jane Doe,30.00\n' +
        '2024-04-03,Paper Supplies Co,-120.00\n' +
        '2024-04-05,John Roe,15.00\n',
    );
  });

  it('a line of words among the dates (a section title under the header) leaves the Date column read as dates', async () => {
    const data =
      'Date,Description,Amount\n' +
      'Transactions posted this month\n' +
      '06/13/2024,Hardware store,-23.10\n' +
      '06/14/2024,Interest paid,0.45\n' +
      '06/17/2024,Gym membership,-39.00\n' +
      '06/20/2024,Book shop,-12.00\n' +
      '06/22/2024,Parking,-4.00\n';
    const { csv } = await mapped(data);
    expect(csv.split('\n').filter((l) => l.startsWith('2024-'))).toEqual([
      '2024-06-13,Hardware store,-23.10',
      '2024-06-14,Interest paid,0.45',
      '2024-06-17,Gym membership,-39.00',
      '2024-06-20,Book shop,-12.00',
      '2024-06-22,Parking,-4.00',
    ]);
  });
});
