import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvInspector, createInspectStream, inspect } from './inspect';

describe('inspect', () => {
  const csv =
    'Report;May\n\nSKU;Name;Qty\nA1;"Mug; blue";3\nA2;Plate;\nA3;Bowl;1;extra\n' + 'A9;X;1\n'.repeat(10);

  it('reports headers, delimiter, encoding, header row, row count and the first 5 rows from pushed chunks', () => {
    const ins = new CsvInspector();
    for (const b of Buffer.from(csv)) ins.push(Buffer.from([b]));
    const r = ins.end();
    expect(r).toMatchObject({
      encoding: 'utf-8',
      delimiter: ';',
      headerRow: 3,
      skippedLines: 2,
      headers: ['SKU', 'Name', 'Qty'],
      rowCount: 13,
      raggedRows: 1,
    });
    expect(r.sampleRows).toEqual([
      ['A1', 'Mug; blue', '3'],
      ['A2', 'Plate', ''],
      ['A3', 'Bowl', '1'],
      ['A9', 'X', '1'],
      ['A9', 'X', '1'],
    ]);
  });

  it('lists the first 100 records (preamble and blank lines as the file has them) for the header-row picker', () => {
    const preamble = Array.from({ length: 12 }, (_, k) => `Account line ${k + 1}`).join('\n');
    const body = Array.from(
      { length: 150 },
      (_, k) => `2024-01-${String((k % 28) + 1).padStart(2, '0')};${k};x`,
    );
    const ins = new CsvInspector({ delimiter: ';', headerRow: 14 });
    ins.push(`${preamble}\n\nDate;Amount;Note\n${body.join('\n')}\n`);
    const r = ins.end();
    expect(r.firstLines).toHaveLength(100);
    expect(r.firstLines[0]).toEqual({ line: 1, cells: ['Account line 1'] });
    // The blank line 13 is skipped: the header is line 14, the 13th record.
    expect(r.firstLines[12]).toEqual({ line: 14, cells: ['Date', 'Amount', 'Note'] });
    expect(r.firstLines[99].line).toBe(101);
    expect(r).toMatchObject({ headerRow: 14, headers: ['Date', 'Amount', 'Note'], rowCount: 150 });
  });

  it('keeps only the first 64 KB for the first lines: wide records give fewer than 100', () => {
    const wide = `${'a'.repeat(2000)},b\n`;
    const ins = new CsvInspector();
    ins.push(`Name,Value\n${wide.repeat(100)}`);
    const r = ins.end();
    expect(r.firstLines.length).toBe(33); // the header and 32 whole records: 11 + 32 × 2,003 ≤ 65,536
    expect(r.firstLines.at(-1)?.cells).toEqual(['a'.repeat(2000), 'b']);
  });

  it('reads without a header row (header: false) and says which row detection would have picked', () => {
    const file = 'Kontoauszug\nDatum;Betrag\n31.03.2024;12,50\n01.04.2024;7,25\n';
    const none = new CsvInspector({ header: false, delimiter: ';' });
    none.push(file);
    expect(none.end()).toMatchObject({
      headerRow: 0,
      detectedHeaderRow: 2,
      skippedLines: 0,
      headers: ['Column 1'],
      rowCount: 4,
      sampleRows: [['Kontoauszug'], ['Datum'], ['31.03.2024'], ['01.04.2024']],
    });
    const chosen = new CsvInspector({ headerRow: 1, delimiter: ';' });
    chosen.push(file);
    expect(chosen.end()).toMatchObject({ headerRow: 1, headers: ['Kontoauszug'], detectedHeaderRow: 2 });
    // Nothing chosen: detection's own answer.
    const detected = new CsvInspector();
    detected.push(file);
    expect(detected.end()).toMatchObject({ headerRow: 2, detectedHeaderRow: 2 });
  });

  it('says which encoding it assumed and why: UTF-8, a BOM, UTF-16, the Windows-1252 fallback, a chosen one', () => {
    const read = (bytes: Buffer, encoding?: 'windows-1252') => {
      const ins = new CsvInspector(encoding ? { encoding } : {});
      ins.push(bytes);
      const r = ins.end();
      return [r.encoding, r.encodingReason];
    };
    expect(read(Buffer.from('Name,City\nZoë,Köln\n'))).toEqual([
      'utf-8',
      'Read as UTF-8: the file is valid UTF-8.',
    ]);
    expect(read(Buffer.from('\ufeffName\nA\n'))).toEqual([
      'utf-8',
      'Read as UTF-8: the file starts with a UTF-8 byte order mark.',
    ]);
    expect(read(Buffer.from('\ufeffName,City\nA,B\n', 'utf16le'))).toEqual([
      'utf-16le',
      'Read as UTF-16 (little-endian): the file starts with a UTF-16 (little-endian) byte order mark.',
    ]);
    // "Köln" saved by Excel on Windows: 0xF6 alone is not UTF-8.
    const cp1252 = Buffer.from('Name,City\nA,K\xf6ln\n', 'latin1');
    expect(read(cp1252)).toEqual([
      'windows-1252',
      'Read as Windows-1252 because the file is not valid UTF-8.',
    ]);
    expect(read(Buffer.from('Name\nA\n'), 'windows-1252')).toEqual([
      'windows-1252',
      'Read as Windows-1252, the encoding chosen for this file.',
    ]);
  });

  it('passes bytes through unchanged while inspecting them (upload → inspector → storage)', async () => {
    const { stream, result } = createInspectStream();
    const stored: Buffer[] = [];
    await pipeline(
      Readable.from([Buffer.from(csv.slice(0, 7)), Buffer.from(csv.slice(7))]),
      stream,
      new Writable({
        write(chunk: Buffer, _e, cb) {
          stored.push(chunk);
          cb();
        },
      }),
    );
    expect(Buffer.concat(stored).toString()).toBe(csv);
    expect((await result).rowCount).toBe(13);
  });

  it('fails the pipeline with the typed error', async () => {
    const { stream, result } = createInspectStream();
    await expect(
      pipeline(
        Readable.from([Buffer.from('%PDF-1.4\n...')]),
        stream,
        new Writable({ write: (_c, _e, cb) => cb() }),
      ),
    ).rejects.toMatchObject({ code: 'BINARY_FILE' });
    await expect(result).rejects.toMatchObject({ code: 'BINARY_FILE' });
  });

  it('inspects a stream', async () => {
    const r = await inspect(Readable.from([Buffer.from('a,b\n1,2\n')]));
    expect(r).toMatchObject({ headers: ['a', 'b'], rowCount: 1, delimiter: ',' });
  });
});
