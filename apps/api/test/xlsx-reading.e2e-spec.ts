import type { INestApplication } from '@nestjs/common';
import ExcelJS from 'exceljs';
import { unzipSync } from 'fflate';
import { H, signUp, startApp, type Agent } from './support/api-test-app';
import { bufferOf, textOf, withParts } from './support/workbooks';
import { uploadTo as upload } from './support/uploads';

// Workbooks read as Excel shows them (issue 26, item 9), through the real api: each file is uploaded with
// POST /api/upload/data, mapped with POST /api/process, and the bytes of the result compared. The files
// are written with exceljs, with a part rewritten where Excel or another writer puts what exceljs does not.

/** Uploads `xlsx` as data and a CSV template of `headers`, maps each column to itself; the result's bytes. */
async function processed(agent: Agent, xlsx: Buffer, headers: string[]): Promise<string> {
  const template = await upload(agent, 'template', `${headers.join(',')}\r\n`, 'template.csv').expect(201);
  const data = await upload(agent, 'data', xlsx, 'export.xlsx').expect(201);
  expect(data.body.headers).toEqual(headers);
  const out = await agent
    .post('/api/process')
    .set(H)
    .send({
      templateFileId: template.body.id,
      dataFileId: data.body.id,
      mappings: headers.map((h) => ({ templateColumn: h, dataColumn: h })),
    })
    .expect(200);
  return out.body.csvData as string;
}

/** A cell's `<c …><v>placeholder</v></c>` made a `t="d"` cell holding ISO text (its style kept). */
function isoCell(sheetXml: string, ref: string, iso: string): string {
  const re = new RegExp(`<c r="${ref}"([^>]*)><v>[^<]*</v></c>`);
  if (!re.test(sheetXml)) throw new Error(`no cell ${ref}`);
  return sheetXml.replace(re, `<c r="${ref}"$1 t="d"><v>${iso}</v></c>`);
}

/**
 * A Mac statement: the 1904 date system with Excel's later <x15:workbookPr>, times of day, elapsed
 * durations, ISO-dated cells under a date-only format, and notes with CR LF line ends and _xHHHH_ escapes.
 */
async function macStatement(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.properties.date1904 = true;
  const s = wb.addWorksheet('Q1');
  s.addRow(['Date', 'Time', 'Duration', 'Booked', 'Note']);
  s.addRow([new Date(Date.UTC(2024, 2, 31)), 0.25, 1.5, 0, 'Line 1\r\nLine 2']);
  s.addRow([new Date(Date.UTC(2024, 3, 1)), 0.5, 0.75, 0, 'Tab_x0009_stop']);
  s.addRow([new Date(Date.UTC(2024, 3, 2)), 0.75, 2 + 1 / 1440, 0, '_x005F_x000D_ stays']);
  for (let r = 2; r <= 4; r++) {
    s.getCell(`A${r}`).numFmt = 'dd/mm/yyyy';
    s.getCell(`B${r}`).numFmt = 'h:mm:ss';
    s.getCell(`C${r}`).numFmt = '[h]:mm:ss';
    s.getCell(`D${r}`).numFmt = 'dd/mm/yyyy';
  }
  const base = await bufferOf(wb);
  let sheet = textOf(base, 'xl/worksheets/sheet1.xml');
  sheet = isoCell(sheet, 'D2', '2024-03-31T14:05:00');
  sheet = isoCell(sheet, 'D3', '2024-04-01T00:00:00Z');
  sheet = isoCell(sheet, 'D4', '2024-04-02T23:59:59.000');
  const workbook = textOf(base, 'xl/workbook.xml')
    .replace(
      '</workbook>',
      '<extLst><ext uri="{140A7094-0E35-4892-8432-C4D2E57EDEB5}"><x15:workbookPr chartTrackingRefBase="1"/></ext></extLst></workbook>',
    )
    .replace('name="Q1"', 'name="Q1_x0020_2024"');
  return withParts(base, { 'xl/worksheets/sheet1.xml': sheet, 'xl/workbook.xml': workbook });
}

describe('Workbooks read as Excel shows them (e2e)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('maps 1904 dates, times of day, elapsed durations, ISO-dated cells and escaped, multi-line notes into the bytes Excel shows', async () => {
    const { agent } = await signUp(app);
    const xlsx = await macStatement();
    const sst = textOf(xlsx, 'xl/sharedStrings.xml');
    expect(sst).toContain('Line 1\r\nLine 2'); // the CR LF is in the XML itself, as Excel reads it
    expect(sst).toContain('Tab_x0009_stop');
    const data = await upload(agent, 'data', xlsx, 'mac.xlsx').expect(201);
    expect(data.body).toMatchObject({ sheet: 'Q1 2024', sheets: [{ name: 'Q1 2024', rows: 4 }] });
    const csv = await processed(agent, xlsx, ['Date', 'Time', 'Duration', 'Booked', 'Note']);
    expect(csv).toBe(
      'Date,Time,Duration,Booked,Note\r\n' +
        '2024-03-31,06:00:00,36:00:00,2024-03-31,"Line 1\nLine 2"\r\n' +
        '2024-04-01,12:00:00,18:00:00,2024-04-01,Tab\tstop\r\n' +
        '2024-04-02,18:00:00,48:01:00,2024-04-02,_x000D_ stays\r\n',
    );
  });

  it('reads a workbook whose _rels/.rels is UTF-16 and whose parts differ from their relationships in letter case', async () => {
    const { agent } = await signUp(app);
    const wb = new ExcelJS.Workbook();
    const s = wb.addWorksheet('Data');
    s.addRow(['Name', 'Amount']);
    s.addRow(['Ann', 12.5]);
    s.addRow(['Bob', -3]);
    const base = await bufferOf(wb);
    const parts = unzipSync(new Uint8Array(base));
    const rels = textOf(base, '_rels/.rels').replace('encoding="UTF-8"', 'encoding="UTF-16"');
    const xlsx = withParts(base, {
      '_rels/.rels': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(rels, 'utf16le')]),
      'xl/workbook.xml': null,
      'xl/Workbook.xml': parts['xl/workbook.xml'],
      'xl/_rels/workbook.xml.rels': null,
      'xl/_rels/Workbook.xml.rels': parts['xl/_rels/workbook.xml.rels'],
      'xl/worksheets/sheet1.xml': null,
      'xl/worksheets/Sheet1.xml': parts['xl/worksheets/sheet1.xml'],
    });
    expect(textOf(xlsx, '_rels/.rels')).not.toContain('officeDocument'); // not readable as UTF-8
    expect(await processed(agent, xlsx, ['Name', 'Amount'])).toBe('Name,Amount\r\nAnn,12.5\r\nBob,-3\r\n');
  });

  it('refuses an empty workbook in words about a workbook, as a template and as data (400 EMPTY_FILE)', async () => {
    const { agent } = await signUp(app);
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Sheet1');
    wb.addWorksheet('Sheet2').getCell('C3').numFmt = '0.00'; // formatted, but no value
    const xlsx = await bufferOf(wb);
    for (const type of ['template', 'data'] as const) {
      const res = await upload(agent, type, xlsx, 'empty.xlsx').expect(400);
      expect(res.body).toEqual({
        code: 'EMPTY_FILE',
        error:
          'The workbook is empty: its sheets have no cells. Add a header row and data to a sheet in Excel, save it, and upload it again.',
      });
    }
  });
});
