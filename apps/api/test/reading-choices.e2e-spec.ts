import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { H, processInBackground, signUp, type Agent } from './support/api-test-app';
import { bytesOf, patchUpload } from './support/uploads';
import { closeAll, startAppAndWorker } from './support/app-and-worker';

// PATCH /api/upload/:id on CSV files: each reading choice (encoding, delimiter, header row) re-reads the
// stored file, answers the upload's shape, and is honoured by every later read: preview, sync run and a
// background job in the worker. Outputs are compared byte for byte.

/** A Windows-1252 bank export: two preamble lines, semicolons, decimal commas, € (0x80) and é (0xE9). */
const BANK = Buffer.concat([
  Buffer.from('Kontoauszug M', 'latin1'),
  Buffer.from([0xfc]),
  Buffer.from('ller\r\nZeitraum: 2024\r\nDatum;Betrag;Notiz\r\n31.03.2024;12,50;Caf', 'latin1'),
  Buffer.from([0xe9]),
  Buffer.from(' \r\n01.04.2024;7,25;Geb', 'latin1'),
  Buffer.from([0xfc, 0x68, 0x72, 0x20, 0x80]),
  Buffer.from('\r\n', 'latin1'),
]);

const MAPPINGS = [
  { templateColumn: 'Date', dataColumn: 'Datum' },
  { templateColumn: 'Amount', dataColumn: 'Betrag' },
  { templateColumn: 'Note', dataColumn: 'Notiz' },
];

async function files(agent: Agent) {
  const t = await agent
    .post('/api/upload/template')
    .set(H)
    .attach('file', Buffer.from('Date,Amount,Note\r\n'), 'template.csv')
    .expect(201);
  const d = await agent.post('/api/upload/data').set(H).attach('file', BANK, 'bank.csv').expect(201);
  return { templateFileId: t.body.id as string, dataFileId: d.body.id as string, upload: d.body };
}

describe('PATCH /api/upload/:id — reading choices (e2e)', () => {
  let app: INestApplication;
  let worker: INestApplicationContext;
  beforeAll(async () => ({ app, worker } = await startAppAndWorker()));
  afterAll(() => closeAll(worker, app));

  const patch = patchUpload;

  it('shows what was detected and the first lines for the header-row picker', async () => {
    const { agent } = await signUp(app);
    const { upload } = await files(agent);
    expect(upload).toMatchObject({
      format: 'csv',
      encoding: 'windows-1252',
      delimiter: ';',
      headerRow: 3,
      headers: ['Datum', 'Betrag', 'Notiz'],
      rowCount: 2,
    });
    expect(upload.firstLines).toEqual([
      { line: 1, cells: ['Kontoauszug Müller'] },
      { line: 2, cells: ['Zeitraum: 2024'] },
      { line: 3, cells: ['Datum', 'Betrag', 'Notiz'] },
      { line: 4, cells: ['31.03.2024', '12,50', 'Café '] },
      { line: 5, cells: ['01.04.2024', '7,25', 'Gebühr €'] },
    ]);
    expect(upload.sheets).toBeUndefined();
  });

  it('re-reads with another encoding, and the preview and a worker job read it that way: bytes compared', async () => {
    const { agent } = await signUp(app, 'business');
    const ids = await files(agent);
    const body = { templateFileId: ids.templateFileId, dataFileId: ids.dataFileId, mappings: MAPPINGS };
    const run = async () => {
      const preview = await agent.post('/api/process/preview').set(H).send(body).expect(200);
      const view = await processInBackground(agent, { ...body, async: true });
      return { preview: preview.body.rows as string[][], bytes: await bytesOf(agent, view.resultUrl) };
    };
    const cp1252 = await run();
    expect(cp1252.preview[1]).toEqual(['01.04.2024', '7,25', 'Gebühr €']);
    expect(
      cp1252.bytes.equals(
        Buffer.from('Date,Amount,Note\r\n31.03.2024,"12,50",Café \r\n01.04.2024,"7,25",Gebühr €\r\n'),
      ),
    ).toBe(true);

    const latin1 = await patch(agent, ids.dataFileId, { encoding: 'iso-8859-1' }).expect(200);
    expect(latin1.body).toMatchObject({
      id: ids.dataFileId,
      encoding: 'iso-8859-1',
      headerRow: 3,
      rowCount: 2,
    });
    expect(latin1.body.encodingReason).toBe('Read as ISO-8859-1, the encoding chosen for this file.');
    const iso = await run();
    // ISO-8859-1 has no €: byte 0x80 is the control character U+0080 (C2 80 in UTF-8).
    expect(
      iso.bytes.equals(
        Buffer.from('Date,Amount,Note\r\n31.03.2024,"12,50",Café \r\n01.04.2024,"7,25",Gebühr \u0080\r\n'),
      ),
    ).toBe(true);

    const utf8 = await patch(agent, ids.dataFileId, { encoding: 'utf-8' }).expect(400);
    expect(utf8.body).toEqual({
      code: 'INVALID_ENCODING',
      error: 'Line 1 is not valid UTF-8 text. Save the file as UTF-8 CSV, or choose its encoding.',
    });
  });

  it('re-reads with another delimiter and header row; the sync run uses them (bytes compared)', async () => {
    const { agent } = await signUp(app);
    const ids = await files(agent);
    const comma = await patch(agent, ids.dataFileId, { delimiter: ',' }).expect(200);
    // With commas only the rows split (at their decimal commas): the first of them is the widest record
    // the rest fit under, so it is taken for the header — a wrong delimiter shows as strange column names.
    expect(comma.body).toMatchObject({
      delimiter: ',',
      headerRow: 4,
      headers: ['31.03.2024;12', '50;Café'],
      rowCount: 1,
    });
    const back = await patch(agent, ids.dataFileId, { delimiter: ';', headerRow: 2 }).expect(200);
    expect(back.body).toMatchObject({
      delimiter: ';',
      headerRow: 2,
      headers: ['Zeitraum: 2024'],
      rowCount: 3,
    });
    // The chosen encoding detected at upload stays; the header row goes back to line 3.
    const three = await patch(agent, ids.dataFileId, { headerRow: 3 }).expect(200);
    expect(three.body).toMatchObject({ headerRow: 3, headers: ['Datum', 'Betrag', 'Notiz'], delimiter: ';' });
    const out = await agent
      .post('/api/process')
      .set(H)
      .send({ templateFileId: ids.templateFileId, dataFileId: ids.dataFileId, mappings: MAPPINGS })
      .expect(200);
    expect(out.body.csvData).toBe(
      'Date,Amount,Note\r\n31.03.2024,"12,50",Café \r\n01.04.2024,"7,25",Gebühr €\r\n',
    );
  });

  it('answers 400 with a reason for a choice it cannot honour, and 404 for another user’s file', async () => {
    const { agent } = await signUp(app);
    const ids = await files(agent);
    const past = await patch(agent, ids.dataFileId, { headerRow: 99 }).expect(400);
    expect(past.body).toEqual({
      code: 'HEADER_ROW_PAST_END',
      error:
        'Line 99 is past the end of the file, so it cannot be the header row. Choose one of the lines shown.',
    });
    const last = await patch(agent, ids.dataFileId, { headerRow: 5 }).expect(400);
    expect(last.body.code).toBe('NO_DATA_ROWS');
    const enc = await patch(agent, ids.dataFileId, { encoding: 'utf-32' }).expect(400);
    expect(enc.body.error).toContain(
      'encoding must be one of utf-8, utf-16le, utf-16be, windows-1252, iso-8859-1',
    );
    const delim = await patch(agent, ids.dataFileId, { delimiter: ':' }).expect(400);
    expect(delim.body.error).toContain('delimiter must be one of , ; | or a TAB character');
    const negative = await patch(agent, ids.dataFileId, { headerRow: -1 }).expect(400);
    expect(negative.body.error).toContain('headerRow must be a line number (1 or more), or 0');
    const sheet = await patch(agent, ids.dataFileId, { sheet: 'Sheet1' }).expect(400);
    expect(sheet.body.code).toBe('NOT_A_WORKBOOK_OPTION');
    const unknown = await patch(agent, ids.dataFileId, { quote: "'" }).expect(400);
    expect(unknown.body.code).toBe('VALIDATION_FAILED');
    // After the refusals the file still reads as it did.
    const ok = await patch(agent, ids.dataFileId, {}).expect(200);
    expect(ok.body).toMatchObject({ headerRow: 3, delimiter: ';', encoding: 'windows-1252' });
    const other = await signUp(app);
    const res = await patch(other.agent, ids.dataFileId, { delimiter: ',' }).expect(404);
    expect(res.body.code).toBe('FILE_NOT_FOUND');
  });

  it('reads a TAB-separated choice', async () => {
    const { agent } = await signUp(app);
    const d = await agent
      .post('/api/upload/data')
      .set(H)
      .attach('file', Buffer.from('a b\tc\n1 2\t3\n'), 'tabs.csv')
      .expect(201);
    const res = await patch(agent, d.body.id, { delimiter: '\t' }).expect(200);
    expect(res.body).toMatchObject({ delimiter: '\t', headers: ['a b', 'c'], data: [['1 2', '3']] });
  });
});
