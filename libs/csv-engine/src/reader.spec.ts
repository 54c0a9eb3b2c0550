import { CsvEngineError } from './errors';
import { parseCsv } from './parse';

function fails(input: Buffer | string, code: string, options = {}): CsvEngineError {
  try {
    parseCsv(input, options);
  } catch (e) {
    expect(e).toBeInstanceOf(CsvEngineError);
    expect((e as CsvEngineError).code).toBe(code);
    return e as CsvEngineError;
  }
  throw new Error(`expected ${code}`);
}

describe('encodings', () => {
  it('strips a UTF-8 BOM so it never reaches a header', () => {
    const r = parseCsv(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Name,Qty\nÄpfel,3\n')]));
    expect(r.headers).toEqual(['Name', 'Qty']);
    expect(r.rows).toEqual([['Äpfel', '3']]);
    expect(r.info).toMatchObject({ encoding: 'utf-8', bom: true });
  });

  it('reads UTF-16 LE with BOM (Excel "Unicode text", tab-separated)', () => {
    const text = 'Name\tCity\r\nJörg\tZürich\r\n';
    const r = parseCsv(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    expect(r.info).toMatchObject({ encoding: 'utf-16le', delimiter: '\t', bom: true });
    expect(r.headers).toEqual(['Name', 'City']);
    expect(r.rows).toEqual([['Jörg', 'Zürich']]);
  });

  it('reads UTF-16 BE with BOM, including characters outside the BMP split across chunks', () => {
    const text = 'Name,Emoji\n😀 Smile,ok\n';
    const bytes = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    const chunks = Array.from(bytes, (b) => Buffer.from([b]));
    const r = parseCsv(chunks);
    expect(r.info.encoding).toBe('utf-16be');
    expect(r.rows).toEqual([['😀 Smile', 'ok']]);
  });

  it('falls back to Windows-1252 when the bytes are not UTF-8', () => {
    // "Müller;€ 5" in cp1252: ü = 0xFC, € = 0x80
    const bytes = Buffer.from([
      ...Buffer.from('Name;Betrag\nM'),
      0xfc,
      ...Buffer.from('ller;'),
      0x80,
      ...Buffer.from(' 5\n'),
    ]);
    const r = parseCsv(bytes);
    expect(r.info).toMatchObject({ encoding: 'windows-1252', delimiter: ';' });
    expect(r.rows).toEqual([['Müller', '€ 5']]);
  });

  it('decides Windows-1252 even when the first non-ASCII byte comes after many ASCII chunks', () => {
    const head = 'a,b\n' + 'x,y\n'.repeat(50_000);
    const r = parseCsv([Buffer.from(head), Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x2c, 0x31, 0x0a])]);
    expect(r.info.encoding).toBe('windows-1252');
    expect(r.rows[r.rows.length - 1]).toEqual(['Café', '1']);
  });

  it('honours an encoding override', () => {
    const bytes = Buffer.from('Name\nCaf\xc3\xa9\n', 'latin1'); // valid UTF-8 "Café"
    expect(parseCsv(bytes).rows).toEqual([['Café']]);
    expect(parseCsv(bytes, { encoding: 'windows-1252' }).rows).toEqual([['CafÃ©']]);
  });

  it('reports invalid UTF-8 after the file was read as UTF-8, with a line', () => {
    // the decision window (64 KB from the first non-ASCII byte) is valid UTF-8; the bad byte comes later
    const chunks = [Buffer.from('Name\nCafé\n' + 'ok\n'.repeat(30_000)), Buffer.from([0x41, 0xff, 0x0a])];
    let err: CsvEngineError | undefined;
    try {
      parseCsv(chunks);
    } catch (e) {
      err = e as CsvEngineError;
    }
    expect(err?.code).toBe('INVALID_ENCODING');
    expect(err?.line).toBe(30_003);
    expect(err?.message).toBe(
      'Line 30003 is not valid UTF-8 text. Save the file as UTF-8 CSV, or choose its encoding.',
    );
  });
});

describe('delimiters and header rows', () => {
  it.each([
    [',', 'a,b,c\n1,2,3\n'],
    [';', 'a;b;c\n1;"2,5";3\n4;5,5;6\n'],
    ['\t', 'a\tb\tc\n1\t2, 3\t3\n'],
    ['|', 'a|b|c\n1|2|3\n4|5|6\n'],
  ])('sniffs %j', (delimiter, text) => {
    expect(parseCsv(text).info.delimiter).toBe(delimiter);
  });

  it('prefers semicolons over decimal commas', () => {
    const r = parseCsv('Datum;Text;Betrag\n01.02.2024;Miete;-850,00\n02.02.2024;Gehalt;3200,50\n');
    expect(r.info.delimiter).toBe(';');
    expect(r.rows[0]).toEqual(['01.02.2024', 'Miete', '-850,00']);
  });

  it('overrides the delimiter', () => {
    expect(parseCsv('a;b,c\n1;2,3\n', { delimiter: ';' }).headers).toEqual(['a', 'b,c']);
  });

  it('skips a bank preamble and counts the skipped lines', () => {
    const text =
      'Account;DE12 3456\nPeriod;01.01.2024 - 31.01.2024\n\nDate;Description;Amount\n02.01.2024;Coffee;-3,50\n';
    const r = parseCsv(text);
    expect(r.info).toMatchObject({ headerRow: 4, skippedLines: 3, delimiter: ';' });
    expect(r.headers).toEqual(['Date', 'Description', 'Amount']);
    expect(r.rows).toEqual([['02.01.2024', 'Coffee', '-3,50']]);
  });

  it('takes the header row from headerRow', () => {
    const r = parseCsv('title line\nx,y\n1,2\n', { headerRow: 2 });
    expect(r.headers).toEqual(['x', 'y']);
    expect(r.info.skippedLines).toBe(1);
  });

  it('disambiguates and reports duplicate headers', () => {
    const r = parseCsv('Name,Name,Email,Name\n1,2,3,4\n');
    expect(r.headers).toEqual(['Name', 'Name (2)', 'Email', 'Name (3)']);
    expect(r.info.duplicateHeaders).toEqual([
      { name: 'Name', renamedTo: 'Name (2)', column: 1 },
      { name: 'Name', renamedTo: 'Name (3)', column: 3 },
    ]);
  });

  it('names blank header cells and rejects a header with no names', () => {
    expect(parseCsv('a,,c\n1,2,3\n').headers).toEqual(['a', 'Column 2', 'c']);
    const e = fails(',,\n1,2,3\n', 'EMPTY_HEADER', { headerRow: 1 });
    expect(e.message).toContain('line 1');
  });

  it('rejects an empty file', () => {
    expect(fails('', 'EMPTY_FILE').message).toBe('The file is empty. Upload a CSV file with a header row.');
    fails('\r\n\n\n', 'EMPTY_FILE');
    fails(Buffer.from([0xef, 0xbb, 0xbf]), 'EMPTY_FILE');
  });
});

describe('grammar', () => {
  it('handles CRLF, LF and CR line ends, blank lines and a missing final newline', () => {
    for (const nl of ['\r\n', '\n', '\r']) {
      const r = parseCsv(`a,b${nl}1,2${nl}${nl}3,4`);
      expect(r.rows).toEqual([
        ['1', '2'],
        ['3', '4'],
      ]);
    }
  });

  it('reads quotes, escapes, delimiters and newlines inside quotes', () => {
    const r = parseCsv('a,b\n"x, ""y""","line1\r\nline2"\n"",\n');
    expect(r.rows).toEqual([
      ['x, "y"', 'line1\r\nline2'],
      ['', ''],
    ]);
  });

  it('keeps text after a closing quote and stray quotes in unquoted fields', () => {
    expect(parseCsv('a,b\n"ab"c,d"e\n').rows).toEqual([['abc', 'd"e']]);
  });

  it('reports ragged rows and pads or truncates them instead of shifting columns', () => {
    const r = parseCsv('a,b,c\n1,2\n1,2,3,4\n1,2,3\n');
    expect(r.rows).toEqual([
      ['1', '2', ''],
      ['1', '2', '3'],
      ['1', '2', '3'],
    ]);
    expect(r.ragged).toEqual([
      { row: 1, line: 2, expected: 3, found: 2 },
      { row: 2, line: 3, expected: 3, found: 4 },
    ]);
  });

  it('counts lines through quoted newlines', () => {
    const r = parseCsv('a,b\n"1\n2",x\n3\n');
    expect(r.ragged).toEqual([{ row: 2, line: 4, expected: 2, found: 1 }]);
  });
});

describe('bad input', () => {
  it('names the line of an unterminated quote', () => {
    const e = fails('a,b\n1,2\n3,"oops\n4,5\n', 'UNTERMINATED_QUOTE');
    expect(e.message).toMatch(/^Unterminated quoted field starting on line 3/);
    expect(e.line).toBe(3);
  });

  it('stops a runaway quote at the field limit, fast and without growing memory', () => {
    const line = 'x'.repeat(1000) + '\n';
    const chunks = function* () {
      yield Buffer.from('a,b\n1,"never closed\n');
      for (let k = 0; k < 50_000; k++) yield Buffer.from(line); // 50 MB if it were all read
    };
    const t = Date.now();
    let err: unknown;
    try {
      parseCsv(chunks());
    } catch (x) {
      err = x;
    }
    expect((err as CsvEngineError).code).toBe('UNTERMINATED_QUOTE');
    expect((err as CsvEngineError).line).toBe(2);
    expect(Date.now() - t).toBeLessThan(2000);
  });

  it('rejects a field over 1 MB with its line', () => {
    const e = fails('a,b\n1,' + 'y'.repeat(1024 * 1024 + 1) + '\n', 'FIELD_TOO_LARGE');
    expect(e.line).toBe(2);
    expect(e.message).toContain('1 MB');
  });

  it.each([
    [
      'Excel/ZIP',
      [0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00],
      'This looks like an Excel/ZIP file, not CSV. Export it as CSV first.',
    ],
    [
      'Excel (.xls)',
      [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
      'This looks like an Excel (.xls) file, not CSV. Export it as CSV first.',
    ],
    ['PDF', [...Buffer.from('%PDF-1.7\n')], 'This looks like a PDF file, not CSV. Export it as CSV first.'],
    [
      'PNG image',
      [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
      'This looks like a PNG image file, not CSV. Export it as CSV first.',
    ],
    [
      'binary',
      [...Buffer.from('a,b\n1,'), 0, 0, 0x0a],
      'This looks like a binary file, not CSV. Export it as CSV first.',
    ],
  ])('rejects %s content', (kind, bytes, message) => {
    const e = fails(Buffer.from([...bytes, ...Buffer.from('rest of the file')]), 'BINARY_FILE');
    expect(e.message).toBe(message);
    expect(e.status).toBe(415);
    expect((e as unknown as { kind: string }).kind).toBe(kind);
  });

  it('finds a NUL byte deep in the file', () => {
    expect(() =>
      parseCsv([Buffer.from('a,b\n' + '1,2\n'.repeat(100_000)), Buffer.from([0x31, 0x00, 0x0a])]),
    ).toThrow('This looks like a binary file, not CSV. Export it as CSV first.');
  });
});
