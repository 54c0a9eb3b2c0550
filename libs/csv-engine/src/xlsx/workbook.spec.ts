import ExcelJS from 'exceljs';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { inspectWorkbook, workbookCsv } from './index';

// Whole workbooks as Excel and LibreOffice read them: written with exceljs, with a part rewritten where a
// real writer (Excel, LibreOffice, Numbers) puts something exceljs does not.

async function bufferOf(wb: ExcelJS.Workbook): Promise<Buffer> {
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A one-sheet workbook of the given rows; `formats` sets the number format of a column (1-based). */
async function sheetOf(
  rows: unknown[][],
  formats: Record<number, string> = {},
  options: { date1904?: boolean; name?: string } = {},
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  if (options.date1904) wb.properties.date1904 = true;
  const s = wb.addWorksheet(options.name ?? 'Data');
  for (const r of rows) s.addRow(r);
  for (const [col, fmt] of Object.entries(formats)) {
    for (let r = 1; r <= rows.length; r++) s.getCell(r, Number(col)).numFmt = fmt;
  }
  return bufferOf(wb);
}

function partsOf(xlsx: Buffer): Record<string, Uint8Array> {
  return unzipSync(new Uint8Array(xlsx));
}

function text(parts: Record<string, Uint8Array>, name: string): string {
  return Buffer.from(parts[name]).toString('utf8');
}

/** The workbook with parts edited: a function of the part's text, new bytes, or null to remove it. */
function edit(xlsx: Buffer, changes: Record<string, ((s: string) => string) | Uint8Array | null>): Buffer {
  const parts = partsOf(xlsx);
  for (const [name, change] of Object.entries(changes)) {
    if (change === null) delete parts[name];
    else if (change instanceof Uint8Array) parts[name] = change;
    else parts[name] = strToU8(change(text(parts, name)));
  }
  return Buffer.from(zipSync(parts));
}

/** Renames an entry (same bytes). */
function rename(xlsx: Buffer, from: string, to: string): Buffer {
  const parts = partsOf(xlsx);
  parts[to] = parts[from];
  delete parts[from];
  return Buffer.from(zipSync(parts));
}

async function csvOf(xlsx: Buffer, sheet?: string): Promise<string> {
  const out: Buffer[] = [];
  for await (const chunk of workbookCsv(() => xlsx, { sheet })) out.push(chunk);
  return Buffer.concat(out).toString('utf8');
}

describe('workbook dates and times', () => {
  it('gives each time of day its own time (0.25, 0.5, 0.75 under h:mm:ss)', async () => {
    const xlsx = await sheetOf([[0.25], [0.5], [0.75], [0.5]], { 1: 'h:mm:ss' });
    expect(await csvOf(xlsx)).toBe('06:00:00\n12:00:00\n18:00:00\n12:00:00\n');
  });

  it('gives each date-time its own time, and a date and a time of one serial their own text', async () => {
    const xlsx = await sheetOf(
      [
        [45382.25, 45382.25],
        [45382.75, 45382.75],
      ],
      { 1: 'yyyy-mm-dd hh:mm', 2: 'h:mm' },
    );
    expect(await csvOf(xlsx)).toBe('2024-03-31 06:00:00,06:00:00\n2024-03-31 18:00:00,18:00:00\n');
  });

  it('keeps the 1904 date system when Excel also writes an <x15:workbookPr> in the workbook’s extLst', async () => {
    const base = await sheetOf([[new Date(Date.UTC(2024, 2, 31))]], { 1: 'yyyy-mm-dd' }, { date1904: true });
    const xlsx = edit(base, {
      'xl/workbook.xml': (s) =>
        s.replace(
          '</workbook>',
          '<extLst><ext uri="{140A7094-0E35-4892-8432-C4D2E57EDEB5}"><x15:workbookPr chartTrackingRefBase="1"/></ext></extLst></workbook>',
        ),
    });
    expect(text(partsOf(xlsx), 'xl/workbook.xml')).toMatch(/date1904="1".*<x15:workbookPr/);
    expect(await csvOf(xlsx)).toBe('2024-03-31\n');
  });

  it('counts whole days in elapsed formats: [h]:mm:ss, [mm]:ss, [ss], [h]:mm and built-in 46', async () => {
    const xlsx = await sheetOf([[1.5, 1.5, 1.5, 1.5 + 59 / 86_400, 2.25, 0.5]], {
      1: '[h]:mm:ss',
      2: '[mm]:ss',
      3: '[ss]',
      4: '[h]:mm',
      5: '[h]" h "mm" min"',
      6: 'h:mm:ss',
    });
    // Built-in 46 is [h]:mm:ss: point the last cell's style at it.
    const builtIn = edit(xlsx, {
      'xl/styles.xml': (s) => s.replace(/(<cellXfs[^>]*>[\s\S]*)numFmtId="21"/, '$1numFmtId="46"'),
      'xl/worksheets/sheet1.xml': (s) => s.replace('<v>0.5</v>', '<v>1.75</v>'),
    });
    expect(await csvOf(builtIn)).toBe('36:00:00,2160:00,129600,36:00,54 h 00 min,42:00:00\n');
  });

  it('shows a t="d" cell (ISO text) through its date format, as a serial of that date would show', async () => {
    const base = await sheetOf([[1, 2, 3, 4, 5]], {
      1: 'dd/mm/yyyy',
      2: 'h:mm',
      3: 'yyyy-mm-dd hh:mm:ss',
      5: 'dd/mm/yyyy',
    });
    const xlsx = edit(base, {
      'xl/worksheets/sheet1.xml': (s) =>
        s
          .replace(/<c r="A1"([^>]*)><v>1<\/v>/, '<c r="A1"$1 t="d"><v>2024-03-31T14:05:00</v>')
          .replace(/<c r="B1"([^>]*)><v>2<\/v>/, '<c r="B1"$1 t="d"><v>2024-03-31T14:05:30.000Z</v>')
          .replace(/<c r="C1"([^>]*)><v>3<\/v>/, '<c r="C1"$1 t="d"><v>2024-03-31</v>')
          .replace(/<c r="D1"([^>]*)><v>4<\/v>/, '<c r="D1"$1 t="d"><v>2024-03-31T14:05:00</v>')
          .replace(/<c r="E1"([^>]*)><v>5<\/v>/, '<c r="E1"$1 t="d"><v>1900-02-28</v>'),
    });
    expect(text(partsOf(xlsx), 'xl/worksheets/sheet1.xml')).toContain('t="d"><v>2024-03-31T14:05:00</v>');
    // D1 has no date format: the ISO text as stored (General in Excel shows the serial's own date).
    expect(await csvOf(xlsx)).toBe(
      '2024-03-31,14:05:30,2024-03-31 00:00:00,2024-03-31T14:05:00,1900-02-28\n',
    );
  });
});

describe('workbook text', () => {
  it('decodes _xHHHH_ escapes in shared strings, inline strings and sheet names; _x005F_ escapes an underscore', async () => {
    const base = await sheetOf(
      [['a_x000D_', '_x005F_x000D_', 'inline', 'x_x0041_y_x00e9_']],
      {},
      { name: 'Q1' },
    );
    const xlsx = edit(base, {
      'xl/workbook.xml': (s) => s.replace('name="Q1"', 'name="Sales_x0020_2024"'),
      'xl/worksheets/sheet1.xml': (s) =>
        s.replace(
          /<c r="C1"([^>]*) t="s"><v>\d+<\/v><\/c>/,
          '<c r="C1"$1 t="inlineStr"><is><t>tab_x0009_here</t></is></c>',
        ),
    });
    expect(text(partsOf(xlsx), 'xl/sharedStrings.xml')).toContain('<t>a_x000D_</t>');
    expect(await csvOf(xlsx, 'Sales 2024')).toBe('"a\r",_x000D_,tab\there,xAyé\n');
    const inspected = await inspectWorkbook(() => xlsx, { inspect: { sampleRows: 1 } });
    expect(inspected.sheets).toEqual([{ name: 'Sales 2024', rows: 1 }]);
  });

  it('reads literal CR LF and lone CR in XML text as LF (a &#13; reference stays a CR)', async () => {
    const base = await sheetOf([['a\r\nb', 'c\rd', 'inline', 'kept']]);
    const xlsx = edit(base, {
      'xl/worksheets/sheet1.xml': (s) =>
        s
          .replace(
            /<c r="C1"([^>]*) t="s"><v>\d+<\/v><\/c>/,
            '<c r="C1"$1 t="inlineStr"><is><t>e\r\nf</t></is></c>',
          )
          .replace(
            /<c r="D1"([^>]*) t="s"><v>\d+<\/v><\/c>/,
            '<c r="D1"$1 t="str"><v>g&#13;&#10;h\r\ni</v></c>',
          ),
    });
    expect(text(partsOf(xlsx), 'xl/sharedStrings.xml')).toContain('a\r\nb');
    expect(await csvOf(xlsx)).toBe('"a\nb","c\nd","e\nf","g\r\nh\ni"\n');
  });
});

describe('workbook packages', () => {
  it('opens a workbook whose _rels/.rels is UTF-16 (with a byte-order mark), as Excel does', async () => {
    const base = await sheetOf([['Name'], ['Ann']]);
    const rels = text(partsOf(base), '_rels/.rels').replace('encoding="UTF-8"', 'encoding="UTF-16"');
    for (const bytes of [
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(rels, 'utf16le')]),
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(rels, 'utf16le').swap16()]),
    ]) {
      expect(await csvOf(edit(base, { '_rels/.rels': new Uint8Array(bytes) }))).toBe('Name\nAnn\n');
    }
  });

  it('opens a workbook whose relationship targets differ from the entries only in letter case', async () => {
    const base = await sheetOf([['Name'], ['Ann']]);
    let xlsx = rename(base, 'xl/workbook.xml', 'xl/Workbook.xml');
    xlsx = rename(xlsx, 'xl/_rels/workbook.xml.rels', 'xl/_rels/Workbook.xml.rels');
    xlsx = rename(xlsx, 'xl/worksheets/sheet1.xml', 'xl/worksheets/Sheet1.xml');
    xlsx = rename(xlsx, 'xl/sharedStrings.xml', 'xl/SharedStrings.xml');
    expect(Object.keys(partsOf(xlsx))).toEqual(
      expect.arrayContaining(['xl/Workbook.xml', 'xl/worksheets/Sheet1.xml']),
    );
    expect(await csvOf(xlsx)).toBe('Name\nAnn\n');
  });

  it('refuses an empty workbook in words about a workbook (code EMPTY_FILE)', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Sheet1');
    wb.addWorksheet('Sheet2').getCell('B3').numFmt = '0.00'; // formatted, but no value
    const xlsx = await bufferOf(wb);
    const err = await inspectWorkbook(() => xlsx).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'EMPTY_FILE',
      message:
        'The workbook is empty: its sheets have no cells. Add a header row and data to a sheet in Excel, save it, and upload it again.',
    });
  });

  it('says which sheet is empty when the chosen sheet has no cells and another has some', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Notes');
    wb.addWorksheet('Data').addRow(['Name']);
    const xlsx = await bufferOf(wb);
    const err = await inspectWorkbook(() => xlsx, { sheet: 'Notes' }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'EMPTY_FILE',
      message: 'The sheet "Notes" is empty. Choose another sheet of the workbook: Data.',
    });
  });
});
