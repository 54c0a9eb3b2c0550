import type { INestApplication } from '@nestjs/common';
import { H, signUp, startApp, type Agent } from './support/api-test-app';

// Issue 26, repros 1–5, through the real entry point: a file as real exports write it goes up through
// POST /api/upload/data, the answer says how it was read (nobody chose anything), and POST /api/process
// writes every transaction — bytes compared.

const TEMPLATE = 'Date,Description,Amount\r\n';
const MAP3 = (date: string, description: string, amount: string) => [
  { templateColumn: 'Date', dataColumn: date },
  { templateColumn: 'Description', dataColumn: description },
  { templateColumn: 'Amount', dataColumn: amount },
];

describe('Reading real exports by themselves (e2e)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  function upload(agent: Agent, kind: 'template' | 'data', text: string, name: string) {
    return agent.post(`/api/upload/${kind}`).set(H).attach('file', Buffer.from(text), name);
  }

  async function run(text: string, mappings: unknown[]) {
    const { agent } = await signUp(app);
    const template = (await upload(agent, 'template', TEMPLATE, 'bank.csv').expect(201)).body;
    const data = (await upload(agent, 'data', text, 'export.csv').expect(201)).body;
    const out = await agent
      .post('/api/process')
      .set(H)
      .send({ templateFileId: template.id, dataFileId: data.id, mappings })
      .expect(200);
    return { data, csv: out.body.csvData as string, totals: out.body.totals };
  }

  it('repro 1: a header ending with the delimiter (Lloyds), and rows ending with it under a header that does not', async () => {
    const lloyds = 'Date,Description,Amount,\n15/01/2024,CARD PAYMENT,-8.99\n16/01/2024,SALARY,2500.00\n';
    const a = await run(lloyds, MAP3('Date', 'Description', 'Amount'));
    expect(a.data).toMatchObject({ headerRow: 1, headers: ['Date', 'Description', 'Amount'], rowCount: 2 });
    expect(a.totals.raggedRows).toBe(0);
    expect(a.csv).toBe(
      'Date,Description,Amount\r\n15/01/2024,CARD PAYMENT,-8.99\r\n16/01/2024,SALARY,2500.00\r\n',
    );

    const trailing = 'Date,Description,Amount\n15/01/2024,CARD PAYMENT,-8.99,\n16/01/2024,SALARY,2500.00,\n';
    const b = await run(trailing, MAP3('Date', 'Description', 'Amount'));
    expect(b.data).toMatchObject({ headerRow: 1, headers: ['Date', 'Description', 'Amount'] });
    expect(b.csv).toBe(a.csv);
    expect(b.totals.raggedRows).toBe(0);
  });

  it('repro 2: a title line as wide as the data is skipped', async () => {
    const text = 'BANK EXPORT;;\nDate;Description;Amount\n2024-01-02;Coffee;-3,50\n2024-01-03;Rent;-800,00\n';
    const r = await run(text, MAP3('Date', 'Description', 'Amount'));
    expect(r.data).toMatchObject({
      delimiter: ';',
      headerRow: 2,
      headers: ['Date', 'Description', 'Amount'],
    });
    expect(r.csv).toBe(
      'Date,Description,Amount\r\n2024-01-02,Coffee,"-3,50"\r\n2024-01-03,Rent,"-800,00"\r\n',
    );
  });

  it('repro 3: a long preamble (account block, blank lines, a sentence) — the header on line 15 found by itself', async () => {
    const preamble = [
      'Umsatzanzeige;Datei erstellt am: 25.05.2023 12:00',
      ';Letztes Update: aktuell',
      '',
      'IBAN;DE12 3456 7890 1234 5678 90',
      'Kontoname;Girokonto',
      'Bank;ING',
      'Kunde;Max Mustermann',
      'Zeitraum;01.04.2023 - 25.05.2023',
      'Saldo;1.234,56;EUR',
      '',
      'Sortierung;Datum absteigend',
      '',
      'In der CSV-Datei finden Sie alle bereits gebuchten Umsätze. Die vorgemerkten Umsätze werden nicht aufgenommen.',
      '',
    ];
    const text = `${preamble.join('\n')}\nBuchung;Verwendungszweck;Betrag\n25.05.2023;Rechnung 123;-12,34\n24.05.2023;Gehalt;2.000,00\n`;
    const r = await run(text, MAP3('Buchung', 'Verwendungszweck', 'Betrag'));
    expect(r.data).toMatchObject({
      headerRow: 15,
      detectedHeaderRow: 15,
      headers: ['Buchung', 'Verwendungszweck', 'Betrag'],
    });
    expect(r.data.rowCount).toBe(2);
    expect(r.csv).toBe(
      'Date,Description,Amount\r\n25.05.2023,Rechnung 123,"-12,34"\r\n24.05.2023,Gehalt,"2.000,00"\r\n',
    );
  });

  it('repro 4: a file that starts with a transaction has no header row — Column 1…N, the first transaction kept', async () => {
    const wells =
      '"01/31/2024","-12.50","*","","PURCHASE AUTHORIZED ON 01/30 STARBUCKS"\n' +
      '"01/30/2024","2500.00","*","","PAYROLL ACME"\n"01/29/2024","-40.00","*","","ATM WITHDRAWAL"\n';
    const r = await run(wells, MAP3('Column 1', 'Column 5', 'Column 2'));
    expect(r.data).toMatchObject({
      headerRow: 0,
      headers: ['Column 1', 'Column 2', 'Column 3', 'Column 4', 'Column 5'],
      rowCount: 3,
    });
    expect(r.csv).toBe(
      'Date,Description,Amount\r\n01/31/2024,PURCHASE AUTHORIZED ON 01/30 STARBUCKS,-12.50\r\n' +
        '01/30/2024,PAYROLL ACME,2500.00\r\n01/29/2024,ATM WITHDRAWAL,-40.00\r\n',
    );
  });

  it('repro 5: an unclosed quote in the first record is reported on line 1, not hidden by sniffing', async () => {
    const { agent } = await signUp(app);
    for (const text of ['id,"name,amount\n1,Bob,3\n', 'a,"\n']) {
      const res = await upload(agent, 'data', text, 'broken.csv').expect(400);
      expect(res.body.code).toBe('UNTERMINATED_QUOTE');
      expect(res.body.error).toContain('line 1');
    }
  });
});
