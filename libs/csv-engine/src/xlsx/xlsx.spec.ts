import { formatNumber } from './values';
import { dateFormatOf, formatElapsed, isoToSerial, serialToIso, type ElapsedFormat } from './date-formats';
import { SheetToCsv, type SheetContext } from './sheet-scanner';
import { SharedStrings } from './shared-strings';
import { fastXmlSink } from './fast-xml';

// Values as Excel shows them, and the worksheet scanner on what real writers produce: prefixes, inline and
// phonetic runs, CDATA, entities, comments, and input cut anywhere.

describe('formatNumber', () => {
  it.each([
    ['0.1', '0.1'],
    ['0.10000000000000001', '0.1'],
    ['0.30000000000000004', '0.3'],
    ['1.1000000000000001', '1.1'],
    ['-1200.5', '-1200.5'],
    ['1E-7', '0.0000001'],
    ['1.5e-10', '0.00000000015'],
    ['1e21', '1000000000000000000000'],
    ['123456789012345678', '123456789012346000'],
    ['-0', '0'],
    ['42', '42'],
  ])('%s → %s', (raw, shown) => expect(formatNumber(raw)).toBe(shown));
});

describe('serialToIso', () => {
  it('reads 1900 serials, including those before Excel’s phantom 29 February 1900', () => {
    expect(serialToIso(45382, false, 'date')).toBe('2024-03-31');
    expect(serialToIso(1, false, 'date')).toBe('1900-01-01');
    expect(serialToIso(59, false, 'date')).toBe('1900-02-28');
    expect(serialToIso(61, false, 'date')).toBe('1900-03-01');
  });
  it('reads 1904 serials and times', () => {
    expect(serialToIso(43920, true, 'date')).toBe('2024-03-31');
    expect(serialToIso(45382.5, false, 'datetime')).toBe('2024-03-31 12:00:00');
    expect(serialToIso(0.25, false, 'time')).toBe('06:00:00');
  });
});

describe('dateFormatOf', () => {
  it('tells dates, times, elapsed times and numbers apart by format', () => {
    expect(dateFormatOf(14, undefined)).toBe('date');
    expect(dateFormatOf(22, undefined)).toBe('datetime');
    expect(dateFormatOf(20, undefined)).toBe('time');
    expect(dateFormatOf(2, undefined)).toBeNull();
    expect(dateFormatOf(164, 'dd/mm/yyyy')).toBe('date');
    expect(dateFormatOf(165, '[$-409]mmm d, yyyy h:mm AM/PM')).toBe('datetime');
    expect(dateFormatOf(166, '"Day" 0.00')).toBeNull();
    expect(dateFormatOf(167, '[Red]#,##0.00')).toBeNull();
    expect(dateFormatOf(46, undefined)).toMatchObject({ kind: 'elapsed' });
    expect(dateFormatOf(168, '[Blue][h]:mm')).toMatchObject({ kind: 'elapsed' });
    expect(dateFormatOf(169, '"[h]" hh:mm')).toBe('time');
  });
});

describe('formatElapsed', () => {
  const elapsed = (code: string) => dateFormatOf(200, code) as ElapsedFormat;
  it.each([
    ['[h]:mm:ss', 1.5, '36:00:00'],
    ['[hh]:mm:ss', 0.25, '06:00:00'],
    ['[h]:mm:ss', 100 + 1 / 86_400, '2400:00:01'],
    ['[mm]:ss', 1.5, '2160:00'],
    ['[m]:ss', 1 / 1440 + 5 / 86_400, '1:05'],
    ['[ss]', 1.5, '129600'],
    ['[h]:mm', 1.5 + 59 / 86_400, '36:00'],
    ['[h]:mm:ss.00', 1 + 0.125 / 86_400, '24:00:00.13'],
    ['[h]" hours"', 2, '48 hours'],
    ['[ss].0', 1 / 1440 + 0.25 / 86_400, '60.3'],
  ])('%s of %d → %s', (code, days, shown) => expect(formatElapsed(days, elapsed(code))).toBe(shown));
});

describe('isoToSerial', () => {
  it('reads ISO dates, date-times and times as the serials Excel stores, in both date systems', () => {
    expect(isoToSerial('2024-03-31', false)).toBe(45382);
    expect(isoToSerial('2024-03-31T12:00:00Z', false)).toBe(45382.5);
    expect(isoToSerial('2024-03-31', true)).toBe(43920);
    expect(isoToSerial('1900-01-01', false)).toBe(1);
    expect(isoToSerial('1900-03-01', false)).toBe(61);
    expect(isoToSerial('06:00:00', false)).toBe(0.25);
    expect(isoToSerial('2024-02-30', false)).toBeNaN();
    expect(isoToSerial('yesterday', false)).toBeNaN();
  });
});

const strings = new SharedStrings();
for (const v of ['Name', 'Ann, "the" first', 'Bob', '']) strings.push(v);
strings.finish();
const context: SheetContext = {
  sharedStrings: strings,
  styleDates: [null, 'date', null, 'datetime', 'time'],
  date1904: false,
};

/** The CSV a sheet's XML becomes, fed in pieces of `cut` bytes (0: all at once). */
function csvOf(xml: string, cut = 0): string {
  const out: Buffer[] = [];
  const sheet = new SheetToCsv('sheet.xml', context, { write: (c) => out.push(Buffer.from(c)) });
  const bytes = Buffer.from(xml, 'utf8');
  if (cut > 0) for (let i = 0; i < bytes.length; i += cut) sheet.data(bytes.subarray(i, i + cut));
  else sheet.data(bytes);
  sheet.end();
  return Buffer.concat(out).toString('utf8');
}

const sheetXml = (rows: string) =>
  `<?xml version="1.0"?><worksheet xmlns="urn:main"><sheetData>${rows}</sheetData></worksheet>`;

describe('SheetToCsv', () => {
  const xml =
    '<?xml version="1.0"?><!-- made by hand --><x:worksheet xmlns:x="urn:main"><x:sheetData>' +
    '<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:r><x:t>Caf</x:t></x:r><x:r><x:t xml:space="preserve">é &amp; co</x:t></x:r>' +
    '<x:rPh sb="0" eb="1"><x:t>カフェ</x:t></x:rPh></x:is></x:c><x:c r="B1" s="2"><x:f>1+1</x:f><x:v>2</x:v></x:c>' +
    '<x:c r="C1" t="str"><x:v><![CDATA[a<b]]></x:v></x:c><x:c r="D1"/></x:row></x:sheetData></x:worksheet>';
  it('reads prefixed tags, rich and phonetic runs, formulas’ cached values, CDATA and entities', () => {
    expect(csvOf(xml)).toBe('Café & co,2,a<b\n');
  });
  it('gives the same bytes however the input is cut', () => {
    for (const cut of [1, 2, 3, 7, 64]) expect(csvOf(xml, cut)).toBe('Café & co,2,a<b\n');
  });
  const typed = sheetXml(
    '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="s"><v>1</v></c></row>' +
      '<row r="3"><c r="A3" s="1"><v>45382</v></c><c r="B3" s="3"><v>45382.5</v></c><c r="C3" t="b"><v>1</v></c>' +
      '<c r="D3"><v>0.10000000000000001</v></c><c r="E3"><v>-0</v></c><c r="F3" t="s"><v>3</v></c></row>' +
      '<row r="4"><c r="B4" t="e"><v>#N/A</v></c><c r="C4" t="str"><v>x, &quot;y&quot;</v></c></row>' +
      '<row r="5"><c r="A5" t="s"><v>2</v></c></row><row r="6"><c r="A6"/></row><row r="7"/>',
  );
  const typedCsv =
    'Name,,"Ann, ""the"" first"\n\n2024-03-31,2024-03-31 12:00:00,TRUE,0.1,0\n,#N/A,"x, ""y""",,\n' +
    'Bob,,,,\n';
  it('writes shared strings as quoted fields, dates, booleans, numbers at their precision; pads rows; keeps row N on line N', () => {
    expect(csvOf(typed)).toBe(typedCsv);
    for (const cut of [1, 5, 13]) expect(csvOf(typed, cut)).toBe(typedCsv);
  });
  it('gives each time of day its own text, and reads line ends and escapes as Excel shows them, however cut', () => {
    const xml = sheetXml(
      '<row r="1"><c s="4"><v>0.25</v></c><c s="4"><v>0.5</v></c><c s="4"><v>0.75</v></c></row>' +
        '<row r="2"><c t="inlineStr"><is><t>a\r\nb_x000D_</t></is></c><c t="str"><v>c\r\nd</v></c></row>',
    );
    for (const cut of [0, 1, 3])
      expect(csvOf(xml, cut)).toBe('06:00:00,12:00:00,18:00:00\n"a\nb\r","c\nd",\n');
  });
  it('refuses a DTD, undeclared entities, rows out of order or past Excel’s last row, and missing shared strings', () => {
    expect(() => csvOf('<!DOCTYPE x [<!ENTITY a "b">]><worksheet/>')).toThrow(/declares a DTD/);
    expect(() => csvOf(sheetXml('<row><c t="str"><v>&a;</v></c></row>'))).toThrow(/undeclared entity/);
    expect(() => csvOf(sheetXml('<row r="2"><c><v>1</v></c></row><row r="1"><c><v>1</v></c></row>'))).toThrow(
      /out of order/,
    );
    expect(() => csvOf(sheetXml('<row r="1048577"><c><v>1</v></c></row>'))).toThrow(/past Excel/);
    expect(() => csvOf(sheetXml('<row><c t="s"><v>9</v></c></row>'))).toThrow(/missing shared string/);
  });
  it('refuses a row that expands past 64 MB (cells repeating one huge shared string)', () => {
    const big = new SharedStrings();
    big.push('x'.repeat(32_767));
    big.finish();
    const sheet = new SheetToCsv('sheet.xml', { ...context, sharedStrings: big }, { write: () => undefined });
    const cells = '<c t="s"><v>0</v></c>'.repeat(2_100); // 2,100 × 32,767 bytes ≈ 69 MB from 46 KB of XML
    expect(() => sheet.data(Buffer.from(sheetXml(`<row>${cells}</row>`)))).toThrow(/larger than 64 MB/);
  });
});

describe('fastXmlSink', () => {
  it('tokenizes shared strings cut anywhere, refusing a DTD', () => {
    const xml = '<sst><si><t>a &lt; b</t></si><si><r><t>x</t></r><r><t>y</t></r></si></sst>';
    for (const cut of [1, 5, 1000]) {
      const texts: string[] = [];
      let inT = false;
      const sink = fastXmlSink('sst.xml', {
        open: (n) => (inT = n === 't'),
        close: () => (inT = false),
        text: (t) => inT && texts.push(t),
      });
      const b = Buffer.from(xml);
      for (let i = 0; i < b.length; i += cut) sink.data(b.subarray(i, i + cut));
      sink.end();
      expect(texts.join('|')).toBe('a < b|x|y');
    }
    const bad = fastXmlSink('sst.xml', { open: () => undefined, close: () => undefined });
    expect(() => bad.data(Buffer.from('<!DOCTYPE sst SYSTEM "http://x/y.dtd"><sst/>'))).toThrow(
      /declares a DTD/,
    );
  });
});
