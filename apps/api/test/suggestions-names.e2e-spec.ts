import type { INestApplication } from '@nestjs/common';
import { BUILT_IN_TEMPLATES } from '@csv-mapper/domain';
import { H, signUp, startApp, type Agent } from './support/api-test-app';
import { asPairs, byColumn, type Suggested } from './support/suggestions';
import { uploadTo } from './support/uploads';

// Issue 27, repros 3–5 through the real entry points: upload → POST /api/mappings/suggest → POST
// /api/process with the suggestion sent back unchanged (confidence and reason dropped), bytes compared.
// 3: meanings kept apart (company ≠ person name, state ≠ country, cost ≠ price, value date ≠ value);
// 4: generic words and partial names don't win (Tax status, Available online only, SEO Description,
//    E-mail 2 Address, Password); 5: names in other languages (German, Dutch, French, Spanish, Italian).

const headersOf = (id: string) => BUILT_IN_TEMPLATES.find((t) => t.id === id)!.columns.map((c) => c.name);

describe('Suggestions from real export names (e2e)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app.close());

  const uploadId = async (agent: Agent, type: 'template' | 'data', content: string): Promise<string> =>
    (await uploadTo(agent, type, content).expect(201)).body.id as string;

  /** Suggests, checks every pair has a reason, runs the suggestion as it is; answers the pairs and the CSV. */
  async function suggestAndRun(
    data: string,
    template: { headers: string[] } | { id: string },
  ): Promise<{ pairs: Map<string, Suggested>; csv: string }> {
    const { agent } = await signUp(app);
    const dataFileId = await uploadId(agent, 'data', data);
    const target =
      'id' in template
        ? { templateId: template.id }
        : { templateFileId: await uploadId(agent, 'template', `${template.headers.join(',')}\r\n`) };
    const res = await agent
      .post('/api/mappings/suggest')
      .set(H)
      .send({ dataFileId, ...target })
      .expect(200);
    const mappings = res.body.mappings as Suggested[];
    for (const m of mappings) expect(m.reason.length).toBeGreaterThan(10);
    const out = await agent
      .post('/api/process')
      .set(H)
      .send({
        dataFileId,
        // a built-in template runs as a virtual one: its headers (recognised, so its rules apply)
        ...('id' in template
          ? { templateFileId: `virtual-template-${template.id}`, templateHeaders: headersOf(template.id) }
          : target),
        mappings: asPairs(mappings),
        unmappedColumns: 'empty',
      })
      .expect(200);
    return { pairs: byColumn(mappings), csv: out.body.csvData as string };
  }

  const source = (m: Suggested | undefined) => (m?.empty ? null : (m?.dataColumn ?? null));

  it('repro 3: a company, a job title and a customer id are not the Name; the state is not the Country', async () => {
    const crm =
      'Company,Job Title,Customer ID,First Name,Last Name,Email,State,Country\r\n' +
      'Acme Ltd,Engineer,C-1001,Ada,Lovelace,ada@example.com,CA,United States\r\n' +
      'Globex,Manager,C-1002,Alan,Turing,alan@example.com,Bavaria,Germany\r\n';
    const customers = await suggestAndRun(crm, { id: 'accounting-customers' });
    expect(customers.pairs.get('Name')?.transform).toEqual(
      expect.arrayContaining([{ kind: 'combine', pattern: '{First Name} {Last Name}' }]),
    );
    expect(customers.csv.split('\r\n')[1]).toMatch(/^Ada Lovelace,ada@example.com,/);

    const hubspot = [
      'First Name',
      'Last Name',
      'Email',
      'Phone Number',
      'Company Name',
      'City',
      'Country/Region',
    ];
    const contacts = await suggestAndRun(crm, { headers: hubspot });
    expect(source(contacts.pairs.get('Country/Region'))).toBe('Country');
    expect(source(contacts.pairs.get('Company Name'))).toBe('Company');
    expect(contacts.csv).toBe(
      'First Name,Last Name,Email,Phone Number,Company Name,City,Country/Region\r\n' +
        'Ada,Lovelace,ada@example.com,,Acme Ltd,,United States\r\n' +
        'Alan,Turing,alan@example.com,,Globex,,Germany\r\n',
    );
  });

  it('repro 3: Cost is not the price, and a value date is a Date, not the Amount', async () => {
    const shop = 'Title,Cost,Price\r\nBlue Mug,4.00,12.50\r\nRed Plate,3.10,9.90\r\n';
    const shopify = await suggestAndRun(shop, { id: 'shopify-products' });
    expect(source(shopify.pairs.get('Variant Price'))).toBe('Price');
    expect(shopify.csv).toContain('12.50');
    expect(shopify.csv).not.toContain('4.00');

    const bank = 'Value Date,Description,Amount\r\n2024-01-02,Coffee,-3.50\r\n2024-01-03,Salary,2500.00\r\n';
    const r = await suggestAndRun(bank, { headers: ['Date', 'Description', 'Amount'] });
    expect([source(r.pairs.get('Date')), source(r.pairs.get('Amount'))]).toEqual(['Value Date', 'Amount']);
    expect(r.csv).toBe('Date,Description,Amount\r\n2024-01-02,Coffee,-3.50\r\n2024-01-03,Salary,2500.00\r\n');
  });

  it('repro 4: Tax status, Available online only and SEO Description lose to nothing / Body (HTML); a password is no Phone, an e-mail address no Address', async () => {
    const woo =
      'Title,Tax status,Available online only,SEO Description,Body (HTML),Price\r\n' +
      'Blue Mug,taxable,no,A mug for tea,<p>A blue mug</p>,12.50\r\n' +
      'Red Plate,taxable,yes,A red plate,<p>A red plate</p>,9.90\r\n';
    const shopify = await suggestAndRun(woo, { id: 'shopify-products' });
    expect(source(shopify.pairs.get('Status'))).toBeNull();
    expect(source(shopify.pairs.get('Published'))).toBeNull();
    expect(source(shopify.pairs.get('Body (HTML)'))).toBe('Body (HTML)');
    expect(shopify.csv).toContain('<p>A blue mug</p>');
    expect(shopify.csv).not.toContain('taxable');
    expect(shopify.csv).not.toContain('A mug for tea');

    const people =
      'Name,E-mail 2 Address,Password *\r\nAda Lovelace,ada2@example.com,83629184\r\nAlan Turing,alan2@example.com,99182736\r\n';
    const customers = await suggestAndRun(people, { id: 'accounting-customers' });
    expect(source(customers.pairs.get('Phone'))).toBeNull();
    expect(source(customers.pairs.get('Address'))).toBeNull();
    expect(customers.csv).not.toContain('83629184');
  });

  it('repro 5: bank headers in German, Dutch, French and Spanish, product headers in Italian', async () => {
    const bank = ['Date', 'Description', 'Amount'];
    const cases: [string, string][] = [
      ['Buchungstag;Verwendungszweck;Betrag\r\n02.01.2024;Miete;-800,00\r\n', '2024-01-02,Miete,-800.00'],
      ['Datum;Naam / Omschrijving;Bedrag (EUR)\r\n02-01-2024;Huur;-800,00\r\n', '2024-01-02,Huur,-800.00'],
      ['Date;Libellé;Montant\r\n02/01/2024;Loyer;-800,00\r\n', '2024-01-02,Loyer,-800.00'],
      ['Fecha;Concepto;Importe\r\n02/01/2024;Alquiler;-800,00\r\n', '2024-01-02,Alquiler,-800.00'],
    ];
    for (const [data, row] of cases) {
      const r = await suggestAndRun(data, { headers: bank });
      expect(r.csv).toBe(`Date,Description,Amount\r\n${row}\r\n`);
    }
    const woo = ['SKU', 'Name', 'Regular price', 'Categories', 'Description', 'Stock'];
    const italian =
      'CODICE,TITOLO,DESCRIZIONE,PREZZO,QUANTITÀ,CATEGORIA\r\nA-1,Tazza blu,Una tazza per il tè,12.50,7,Cucina\r\n';
    const r = await suggestAndRun(italian, { headers: woo });
    expect(r.csv).toBe(
      'SKU,Name,Regular price,Categories,Description,Stock\r\nA-1,Tazza blu,12.50,Cucina,Una tazza per il tè,7\r\n',
    );
  });
});
