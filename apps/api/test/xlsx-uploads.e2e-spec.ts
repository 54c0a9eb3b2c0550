import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import ExcelJS from 'exceljs';
import { H, processInBackground, signUp } from './support/api-test-app';
import { bankWorkbook, bigWorkbook, bufferOf, withParts } from './support/workbooks';
import { uploadTo as upload } from './support/uploads';
import { closeAll, startAppAndWorker } from './support/app-and-worker';

// Excel workbooks as template and data files, against the real api, Postgres, Redis and worker: values as
// Excel shows them, the sheet picker, header rows under a title block, and runs (sync and background)
// whose bytes equal the same data uploaded as CSV.

describe('Excel workbooks (.xlsx) as uploads (e2e)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext;

  beforeAll(async () => ({ app, worker } = await startAppAndWorker({ SYNC_ROW_LIMIT: '1000' })));
  afterAll(() => closeAll(worker, app));

  it('reads the first visible sheet below its title block: ISO dates, exact decimals, formulas, rich text, booleans, merged cells', async () => {
    const { agent } = await signUp(app);
    const res = await upload(agent, 'data', await bankWorkbook(), 'statement.xlsx').expect(201);
    expect(res.body).toMatchObject({
      filename: 'statement.xlsx',
      format: 'xlsx',
      sheet: 'Transactions',
      sheets: [
        { name: 'Lookup', rows: 2, hidden: true },
        { name: 'Transactions', rows: 8 },
        { name: 'Products', rows: 3 },
      ],
      headerRow: 4,
      headers: ['Date', 'Description', 'Amount', 'Cleared'],
      rowCount: 5,
      encoding: 'utf-8',
      encodingReason: 'Read from an Excel workbook (.xlsx).',
    });
    expect(res.body.data).toEqual([
      ['2024-03-31', 'Coffee, large', '0.1', 'TRUE'],
      ['2024-04-01', 'Rent April', '-1200.5', 'FALSE'],
      ['2024-04-02', 'Total so far', '-1200.4', ''],
      ['2024-04-03', 'Merged note', '0.3', 'TRUE'],
      ['2024-04-04', '', '7', 'FALSE'],
    ]);
    // The title block is shown for the header-row picker, with the sheet's row numbers.
    expect(res.body.firstLines.slice(0, 3)).toEqual([
      { line: 1, cells: ['Bank of Example — statement'] },
      { line: 2, cells: ['Account', 'GB00 1234'] },
      { line: 4, cells: ['Date', 'Description', 'Amount', 'Cleared'] },
    ]);
  });

  it('reads date serials of the 1904 date system as the same dates', async () => {
    const { agent } = await signUp(app);
    const res = await upload(agent, 'data', await bankWorkbook({ date1904: true }), 'mac.xlsx').expect(201);
    expect(res.body.data.map((r: string[]) => r[0])).toEqual([
      '2024-03-31',
      '2024-04-01',
      '2024-04-02',
      '2024-04-03',
      '2024-04-04',
    ]);
  });

  it('switches to the second sheet (PATCH { sheet }) and maps it: the download is the expected CSV, byte for byte', async () => {
    const { agent } = await signUp(app);
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Template').addRow(['SKU', 'Product', 'Price']);
    const template = await upload(agent, 'template', await bufferOf(wb), 'template.xlsx').expect(201);
    expect(template.body).toMatchObject({ headers: ['SKU', 'Product', 'Price'], sheet: 'Template' });
    const data = await upload(agent, 'data', await bankWorkbook(), 'statement.xlsx').expect(201);
    const patched = await agent
      .patch(`/api/upload/${data.body.id}`)
      .set(H)
      .send({ sheet: 'Products' })
      .expect(200);
    expect(patched.body).toMatchObject({
      id: data.body.id,
      sheet: 'Products',
      headerRow: 1,
      headers: ['SKU', 'Name', 'Price'],
      rowCount: 2,
      data: [
        ['A-1', 'Pen', '1.25'],
        ['B-2', 'Paper "A4"', '3'],
      ],
    });
    const body = {
      templateFileId: template.body.id,
      dataFileId: data.body.id,
      mappings: [
        { templateColumn: 'SKU', dataColumn: 'SKU' },
        { templateColumn: 'Product', dataColumn: 'Name' },
        { templateColumn: 'Price', dataColumn: 'Price' },
      ],
    };
    const out = await agent.post('/api/process').set(H).send(body).expect(200);
    expect(out.body.csvData).toBe('SKU,Product,Price\r\nA-1,Pen,1.25\r\nB-2,"Paper ""A4""",3\r\n');
    const preview = await agent.post('/api/process/preview').set(H).send(body).expect(200);
    expect(preview.body.rows).toEqual([
      ['A-1', 'Pen', '1.25'],
      ['B-2', 'Paper "A4"', '3'],
    ]);
    // An unknown sheet is a 400 that names the sheets there are; a CSV choice on a workbook is refused.
    const unknown = await agent
      .patch(`/api/upload/${data.body.id}`)
      .set(H)
      .send({ sheet: 'Nope' })
      .expect(400);
    expect(unknown.body).toEqual({
      code: 'UNKNOWN_SHEET',
      error: 'The workbook has no sheet named "Nope". Its sheets are: Lookup, Transactions, Products.',
    });
    const enc = await agent.patch(`/api/upload/${data.body.id}`).set(H).send({ delimiter: ';' }).expect(400);
    expect(enc.body.code).toBe('NOT_A_WORKBOOK_OPTION');
  });

  it('maps a 100,000-row workbook in the worker into the same bytes as the same data uploaded as CSV', async () => {
    const { agent } = await signUp(app, 'business');
    const { xlsx, csv } = await bigWorkbook(100_000);
    const template = await upload(agent, 'template', 'Name,Amount,Date\r\n', 't.csv').expect(201);
    const book = await upload(agent, 'data', xlsx, 'big.xlsx').expect(201);
    const plain = await upload(agent, 'data', csv, 'big.csv').expect(201);
    expect(book.body).toMatchObject({ rowCount: 100_000, headers: ['Name', 'Amount', 'Date'] });
    const mappings = [
      { templateColumn: 'Name', dataColumn: 'Name' },
      { templateColumn: 'Amount', dataColumn: 'Amount' },
      {
        templateColumn: 'Date',
        dataColumn: 'Date',
        transform: { kind: 'date', input: 'auto', output: 'DD/MM/YYYY' },
      },
    ];
    const results: string[] = [];
    for (const dataFileId of [book.body.id, plain.body.id]) {
      const view = await processInBackground(agent, {
        templateFileId: template.body.id,
        dataFileId,
        mappings,
      });
      expect(view).toMatchObject({ state: 'completed', rowsProcessed: 100_000 });
      results.push((await agent.get(view.resultUrl as string).expect(200)).text);
    }
    expect(results[0].split('\r\n')[1]).toBe('Person 1,0.01,02/01/2024');
    expect(Buffer.from(results[0]).equals(Buffer.from(results[1]))).toBe(true);
  }, 180_000);

  it("answers 404 for someone else's file, as for a missing one", async () => {
    const owner = await signUp(app);
    const other = await signUp(app);
    const data = await upload(owner.agent, 'data', await bankWorkbook(), 'statement.xlsx').expect(201);
    const res = await other.agent.patch(`/api/upload/${data.body.id}`).set(H).send({ sheet: 'Products' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('FILE_NOT_FOUND');
  });

  it('keeps a workbook with a removed sheet part from passing as readable', async () => {
    const { agent } = await signUp(app);
    const broken = withParts(await bankWorkbook(), { 'xl/worksheets/sheet2.xml': null });
    const res = await upload(agent, 'data', broken, 'broken.xlsx').expect(400);
    expect(res.body).toEqual({
      code: 'INVALID_WORKBOOK',
      error: expect.stringContaining('is missing from the file'),
    });
  });
});
