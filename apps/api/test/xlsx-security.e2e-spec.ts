import type { INestApplication } from '@nestjs/common';
import { deflateRawSync } from 'node:zlib';
import { zipSync, strToU8 } from 'fflate';
import { H, signUp, startApp, type Agent } from './support/api-test-app';
import { bankWorkbook, deflatedFiller, entriesOf, rawZip, textOf, withParts } from './support/workbooks';

// Hostile spreadsheets against the real api: ZIP bombs (declared and lying), too many parts, ZIPs that are
// no workbook, external links, XML entity tricks, legacy .xls and password-protected files. Each is refused
// with a 4xx that says what to do; the bombs are refused without the api's memory growing with them.

const SHEET_PREFIX =
  '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>';
const SHEET_SUFFIX = '</sheetData></worksheet>';

function upload(agent: Agent, content: Buffer, filename = 'book.xlsx') {
  return agent
    .post('/api/upload/data')
    .set(H)
    .attach('file', content, { filename, contentType: 'application/octet-stream' });
}

function rssMb(): number {
  return process.memoryUsage().rss / (1024 * 1024);
}

describe('Hostile workbooks are refused (e2e)', () => {
  let app: INestApplication;
  let base: Buffer;
  beforeAll(async () => {
    app = await startApp();
    base = await bankWorkbook();
  });
  afterAll(() => app.close());

  it('refuses a ZIP bomb by its declared size (free plan: 20 × 1 MB) before unpacking a byte', async () => {
    const { agent } = await signUp(app);
    const sheet = await deflatedFiller(400 * 1024 * 1024, SHEET_PREFIX, SHEET_SUFFIX);
    const entries = entriesOf(base).map((e) =>
      e.name === 'xl/worksheets/sheet2.xml'
        ? {
            ...e,
            data: sheet,
            method: 8 as const,
            size: SHEET_PREFIX.length + 400 * 1024 * 1024 + SHEET_SUFFIX.length,
          }
        : e,
    );
    const before = rssMb();
    const res = await upload(agent, rawZip(entries)).expect(413);
    expect(rssMb() - before).toBeLessThan(100);
    expect(res.body.code).toBe('WORKBOOK_TOO_LARGE');
    expect(res.body.error).toMatch(/unpacks to 400 MB, more than the 20 MB one part may hold/);
  });

  it('stops a lying bomb (its directory declares 2 KB, it holds 400 MB) at the declared size', async () => {
    const { agent } = await signUp(app);
    const sheet = await deflatedFiller(400 * 1024 * 1024, SHEET_PREFIX, SHEET_SUFFIX);
    const entries = entriesOf(base).map((e) =>
      e.name === 'xl/worksheets/sheet2.xml' ? { ...e, data: sheet, method: 8 as const, size: 2048 } : e,
    );
    const before = rssMb();
    const res = await upload(agent, rawZip(entries)).expect(400);
    expect(rssMb() - before).toBeLessThan(100);
    expect(res.body).toEqual({
      code: 'INVALID_WORKBOOK',
      error: expect.stringContaining('unpacks to more than its directory says'),
    });
  });

  it('refuses a workbook of more than 10,000 parts', async () => {
    const { agent } = await signUp(app, 'business');
    const entries = entriesOf(base);
    for (let i = 0; i < 10_001; i++)
      entries.push({ name: `x/${i}`, data: Buffer.alloc(0), method: 0, size: 0 });
    const res = await upload(agent, rawZip(entries)).expect(413);
    expect(res.body.error).toMatch(/holds 10\d{3} parts; at most 10000 are read/);
  });

  it('refuses ZIP files that are not workbooks, by content, whatever their name', async () => {
    const { agent } = await signUp(app);
    const plainZip = Buffer.from(zipSync({ 'notes.txt': strToU8('hello') }));
    const a = await upload(agent, plainZip, 'notes.xlsx').expect(415);
    expect(a.body).toEqual({
      code: 'UNSUPPORTED_WORKBOOK',
      error:
        'This file is a ZIP archive but not an Excel workbook (.xlsx). Upload a .xlsx workbook or a CSV file.',
    });
    // A Word document: the package's main part is not a workbook.
    const docx = Buffer.from(
      zipSync({
        '_rels/.rels': strToU8(
          '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
        ),
        'word/document.xml': strToU8('<?xml version="1.0"?><document/>'),
      }),
    );
    const b = await upload(agent, docx, 'letter.csv').expect(415);
    expect(b.body.code).toBe('UNSUPPORTED_WORKBOOK');
  });

  it("refuses a row past Excel's last row, and a row that one repeated shared string blows up past 64 MB", async () => {
    const { agent } = await signUp(app);
    const far = `${SHEET_PREFIX}<row r="1048577"><c r="A1048577" t="inlineStr"><is><t>x</t></is></c></row>${SHEET_SUFFIX}`;
    const a = await upload(agent, withParts(base, { 'xl/worksheets/sheet2.xml': far })).expect(400);
    expect(a.body).toEqual({
      code: 'INVALID_WORKBOOK',
      error: expect.stringContaining("past Excel's last row"),
    });
    // 46 KB of sheet XML pointing 2,100 times at one 32,767-character string: ~69 MB as CSV.
    const sst =
      '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
      `<si><t>${'x'.repeat(32_767)}</t></si></sst>`;
    const wide = `${SHEET_PREFIX}<row r="2">${'<c t="s"><v>0</v></c>'.repeat(2_100)}</row>${SHEET_SUFFIX}`;
    const before = rssMb();
    const b = await upload(
      agent,
      withParts(base, {
        'xl/sharedStrings.xml': sst,
        'xl/worksheets/sheet1.xml': SHEET_PREFIX + SHEET_SUFFIX, // the other sheet no longer points into it
        'xl/worksheets/sheet2.xml': wide,
      }),
    ).expect(400);
    expect(rssMb() - before).toBeLessThan(200);
    expect(b.body).toEqual({ code: 'INVALID_WORKBOOK', error: expect.stringContaining('larger than 64 MB') });
  });

  it('refuses a workbook with external links', async () => {
    const { agent } = await signUp(app);
    const rels = textOf(base, 'xl/_rels/workbook.xml.rels').replace(
      '</Relationships>',
      '<Relationship Id="rIdX" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLink" Target="externalLinks/externalLink1.xml"/></Relationships>',
    );
    const linked = withParts(base, {
      'xl/_rels/workbook.xml.rels': rels,
      'xl/externalLinks/externalLink1.xml': '<?xml version="1.0"?><externalLink/>',
    });
    const res = await upload(agent, linked).expect(400);
    expect(res.body).toEqual({ code: 'INVALID_WORKBOOK', error: expect.stringContaining('external links') });
  });

  it('refuses XML entity tricks: billion laughs and an external entity', async () => {
    const { agent } = await signUp(app);
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY a "lolololololololololo">' +
      Array.from(
        { length: 9 },
        (_, i) => `<!ENTITY ${'b'.repeat(i + 1)} "${`&${i === 0 ? 'a' : 'b'.repeat(i)};`.repeat(10)}">`,
      ).join('') +
      ']><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&bbbbbbbbb;</t></si></sst>';
    const before = rssMb();
    const a = await upload(agent, withParts(base, { 'xl/sharedStrings.xml': laughs })).expect(400);
    expect(rssMb() - before).toBeLessThan(100);
    expect(a.body).toEqual({
      code: 'INVALID_WORKBOOK',
      error: expect.stringContaining('"xl/sharedStrings.xml" declares a DTD'),
    });
    const workbook = textOf(base, 'xl/workbook.xml').replace(
      '<workbook',
      '<!DOCTYPE workbook [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><workbook',
    );
    const b = await upload(
      agent,
      withParts(base, { 'xl/workbook.xml': workbook.replace('</workbook>', '&xxe;</workbook>') }),
    ).expect(400);
    expect(b.body.error).toContain('declares a DTD');
    expect(JSON.stringify(b.body)).not.toContain('root:');
    // An entity used without a DTD is no predefined one: refused too.
    const sst = textOf(base, 'xl/sharedStrings.xml').replace('<t>', '<t>&nbsp;');
    const c = await upload(agent, withParts(base, { 'xl/sharedStrings.xml': sst })).expect(400);
    expect(c.body.error).toContain('uses an undeclared entity');
  });

  it('refuses legacy .xls and password-protected workbooks, saying to save as .xlsx or CSV', async () => {
    const { agent } = await signUp(app);
    const ole = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);
    const xls = await upload(agent, ole, 'old.xls').expect(415);
    expect(xls.body).toEqual({
      code: 'UNSUPPORTED_WORKBOOK',
      error: expect.stringMatching(/legacy Excel \.xls file.*save it as \.xlsx \(Excel Workbook\) or as CSV/),
    });
    // Excel keeps a password-protected .xlsx in an OLE container with an "EncryptionInfo" stream.
    const encrypted = Buffer.from(ole);
    Buffer.from('EncryptionInfo', 'utf16le').copy(encrypted, 1024);
    const enc = await upload(agent, encrypted, 'secret.xlsx').expect(415);
    expect(enc.body.error).toMatch(/password-protected.*save it as \.xlsx, or save it as CSV/);
  });

  it('refuses a ZIP entry in an unknown compression and a cut-short file as damaged', async () => {
    const { agent } = await signUp(app);
    const entries = entriesOf(base).map((e) =>
      e.name === 'xl/workbook.xml' ? { ...e, method: 12 as unknown as 8, data: deflateRawSync(e.data) } : e,
    );
    const res = await upload(agent, rawZip(entries)).expect(400);
    expect(res.body.error).toMatch(/damaged.*unknown compression/);
    const cut = await upload(agent, base.subarray(0, base.length - 40)).expect(415);
    expect(cut.body.code).toBe('UNSUPPORTED_WORKBOOK');
  });
});
