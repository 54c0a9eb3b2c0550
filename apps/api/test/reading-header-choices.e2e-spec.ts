import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import ExcelJS from 'exceljs';
import { H, processInBackground, signUp, waitForJob, type Agent } from './support/api-test-app';
import { bufferOf } from './support/workbooks';
import { bytesOf, patchUpload, uploadTo } from './support/uploads';
import { closeAll, startAppAndWorker } from './support/app-and-worker';

// Issue 26, reading choices: PATCH /api/upload/:id { headerRow: 0 } reads a file that has no header row
// (every record is data, columns `Column 1…N`), and every later read honours it — preview, sync run, a
// background job in the worker, a batch; saved mappings keep `reading.headerRow: 0` for recipes. A header
// below a 12-line preamble is offered among the first lines and can be chosen. Outputs compared as bytes.

/** A headerless bank export (Wells Fargo, ASN Bank): the file starts with a transaction. */
const HEADERLESS =
  '01/31/2024,-3.50,COFFEE SHOP\r\n02/01/2024,2000.00,PAYROLL ACME\r\n02/02/2024,-45.10,GROCER\r\n';
const HEADERLESS_OUT =
  'Date,Amount,Description\r\n01/31/2024,-3.50,COFFEE SHOP\r\n02/01/2024,2000.00,PAYROLL ACME\r\n02/02/2024,-45.10,GROCER\r\n';

/** An ING Germany-style export: 12 lines of account details and a sentence, the header on line 13. */
const PREAMBLE = [
  'Umsatzanzeige;Datei erstellt am: 25.02.2024 14:03',
  'IBAN;DE12 5001 0517 0648 4898 90',
  'Kontoname;Girokonto',
  'Bank;ING',
  'Kunde;Erika Mustermann',
  'Zeitraum;01.01.2024 - 31.01.2024',
  'Saldo;1.234,56;EUR',
  'Sortierung;Datum absteigend',
  'In der CSV-Datei finden Sie alle bereits gebuchten Umsätze.',
  'Die vorgemerkten Umsätze werden nicht aufgenommen.',
  'Stand;25.02.2024',
  'Konto;Girokonto 0648489890',
];
const ING = `${PREAMBLE.join('\n')}\nBuchung;Verwendungszweck;Betrag\n31.01.2024;Miete Januar;-850,00\n15.01.2024;Gehalt;2.100,00\n02.01.2024;Bäckerei;-4,20\n`;

const MAPPINGS = [
  { templateColumn: 'Date', dataColumn: 'Column 1' },
  { templateColumn: 'Amount', dataColumn: 'Column 2' },
  { templateColumn: 'Description', dataColumn: 'Column 3' },
];

describe('PATCH /api/upload/:id — no header row, a header on any of the first 100 records (e2e)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext;
  beforeAll(async () => ({ app, worker } = await startAppAndWorker()));
  afterAll(() => closeAll(worker, app));

  const patch = patchUpload;
  const upload = async (agent: Agent, kind: 'template' | 'data', bytes: Buffer, name: string) =>
    (await uploadTo(agent, kind, bytes, name).expect(201)).body;

  it('headerRow 0 reads a headerless bank file: Column 1…3, every record counted and written (preview, sync, job, batch)', async () => {
    const { agent } = await signUp(app, 'business');
    const template = await upload(agent, 'template', Buffer.from('Date,Amount,Description\r\n'), 'bank.csv');
    const data = await upload(agent, 'data', Buffer.from(HEADERLESS), 'wells.csv');
    expect(data.firstLines[0]).toEqual({ line: 1, cells: ['01/31/2024', '-3.50', 'COFFEE SHOP'] });

    const none = await patch(agent, data.id, { headerRow: 0 }).expect(200);
    expect(none.body).toMatchObject({
      id: data.id,
      headerRow: 0,
      headers: ['Column 1', 'Column 2', 'Column 3'],
      rowCount: 3,
      delimiter: ',',
      data: [
        ['01/31/2024', '-3.50', 'COFFEE SHOP'],
        ['02/01/2024', '2000.00', 'PAYROLL ACME'],
        ['02/02/2024', '-45.10', 'GROCER'],
      ],
    });
    expect(none.body.firstLines.map((l: { line: number }) => l.line)).toEqual([1, 2, 3]);
    expect(typeof none.body.detectedHeaderRow).toBe('number');

    const body = { templateFileId: template.id, dataFileId: data.id, mappings: MAPPINGS };
    const preview = await agent.post('/api/process/preview').set(H).send(body).expect(200);
    expect(preview.body.rows[0]).toEqual(['01/31/2024', '-3.50', 'COFFEE SHOP']);

    const sync = await agent.post('/api/process').set(H).send(body).expect(200);
    expect(sync.body.csvData).toBe(HEADERLESS_OUT);

    const job = await processInBackground(agent, { ...body, async: true });
    expect(job.state).toBe('completed');
    expect(await bytesOf(agent, job.resultUrl as string)).toEqual(Buffer.from(HEADERLESS_OUT));

    const batch = await agent
      .post('/api/batches')
      .set(H)
      .send({ templateFileId: template.id, dataFileIds: [data.id], mappings: MAPPINGS })
      .expect(202);
    const batchJob = await waitForJob(agent, batch.body.jobs[0].jobId as string);
    expect(batchJob.state).toBe('completed');
    expect(await bytesOf(agent, batchJob.resultUrl as string)).toEqual(Buffer.from(HEADERLESS_OUT));

    // A saved mapping keeps the choice for recipes and the command-line tool.
    const saved = await agent
      .post('/api/mappings')
      .set(H)
      .send({
        name: 'Wells Fargo',
        templateHeaders: ['Date', 'Amount', 'Description'],
        dataHeaders: ['Column 1', 'Column 2', 'Column 3'],
        mappings: MAPPINGS,
        reading: { headerRow: 0 },
      })
      .expect(201);
    const recipe = await agent.get(`/api/mappings/${saved.body.id}/recipe`).expect(200);
    expect(recipe.body.reading).toEqual({ headerRow: 0 });

    // Back to a header row on line 1: the first transaction becomes the column names again.
    const one = await patch(agent, data.id, { headerRow: 1 }).expect(200);
    expect(one.body).toMatchObject({
      headerRow: 1,
      rowCount: 2,
      headers: ['01/31/2024', '-3.50', 'COFFEE SHOP'],
    });
  });

  it('offers a header on record 13 among the first lines, and reads from it when chosen (bytes compared)', async () => {
    const { agent } = await signUp(app);
    const template = await upload(agent, 'template', Buffer.from('Datum,Text,Betrag\r\n'), 'template.csv');
    const data = await upload(agent, 'data', Buffer.from(ING), 'ing.csv');
    // Every record of the file is offered (the picker once stopped at 10): the header is the 13th.
    expect(data.firstLines).toHaveLength(16);
    expect(data.firstLines[12]).toEqual({ line: 13, cells: ['Buchung', 'Verwendungszweck', 'Betrag'] });

    const chosen = await patch(agent, data.id, { headerRow: 13 }).expect(200);
    expect(chosen.body).toMatchObject({
      headerRow: 13,
      headers: ['Buchung', 'Verwendungszweck', 'Betrag'],
      rowCount: 3,
      delimiter: ';',
    });
    // What detection picks with the same delimiter is still told, so the picker can mark it.
    expect(chosen.body.detectedHeaderRow).toBe(data.delimiter === ';' ? data.headerRow : expect.any(Number));

    const out = await agent
      .post('/api/process')
      .set(H)
      .send({
        templateFileId: template.id,
        dataFileId: data.id,
        mappings: [
          { templateColumn: 'Datum', dataColumn: 'Buchung' },
          { templateColumn: 'Text', dataColumn: 'Verwendungszweck' },
          { templateColumn: 'Betrag', dataColumn: 'Betrag' },
        ],
      })
      .expect(200);
    expect(out.body.csvData).toBe(
      'Datum,Text,Betrag\r\n31.01.2024,Miete Januar,"-850,00"\r\n15.01.2024,Gehalt,"2.100,00"\r\n02.01.2024,Bäckerei,"-4,20"\r\n',
    );
  });

  it('a workbook without a header row: headerRow 0 makes the first sheet row data', async () => {
    const { agent } = await signUp(app);
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Export');
    sheet.addRow(['2024-01-31', -3.5, 'COFFEE SHOP']);
    sheet.addRow(['2024-02-01', 2000, 'PAYROLL ACME']);
    const template = await upload(agent, 'template', Buffer.from('Date,Amount,Description\r\n'), 'bank.csv');
    const data = await upload(agent, 'data', await bufferOf(wb), 'export.xlsx');
    const none = await patch(agent, data.id, { headerRow: 0 }).expect(200);
    expect(none.body).toMatchObject({
      format: 'xlsx',
      headerRow: 0,
      headers: ['Column 1', 'Column 2', 'Column 3'],
      rowCount: 2,
    });
    const out = await agent
      .post('/api/process')
      .set(H)
      .send({ templateFileId: template.id, dataFileId: data.id, mappings: MAPPINGS })
      .expect(200);
    expect(out.body.csvData).toBe(
      'Date,Amount,Description\r\n2024-01-31,-3.5,COFFEE SHOP\r\n2024-02-01,2000,PAYROLL ACME\r\n',
    );
  });

  it('answers 400 { error, code } for a header row past the end or below 0, and the file reads as before', async () => {
    const { agent } = await signUp(app);
    const data = await upload(agent, 'data', Buffer.from(ING), 'ing.csv');
    const past = await patch(agent, data.id, { headerRow: 17 }).expect(400);
    expect(past.body).toEqual({
      code: 'HEADER_ROW_PAST_END',
      error:
        'Line 17 is past the end of the file, so it cannot be the header row. Choose one of the lines shown.',
    });
    const negative = await patch(agent, data.id, { headerRow: -1 }).expect(400);
    expect(negative.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      error: 'headerRow must be a line number (1 or more), or 0 for a file without a header row.',
    });
    const same = await patch(agent, data.id, {}).expect(200);
    expect(same.body).toMatchObject({
      headerRow: data.headerRow,
      headers: data.headers,
      rowCount: data.rowCount,
    });
  });
});
