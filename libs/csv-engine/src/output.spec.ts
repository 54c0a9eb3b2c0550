import { applyMappingToBuffer } from './mapping';
import { inferColumnTransform, inferColumnTransforms } from './mapping/column-kinds';
import { inspect } from './inspect';
import { resolveOutputOptions, runTotals } from './output';

// Issue 20's engine side: what a column's values suggest, quoteStyle 'all', the line ending of a file, and
// "match the template" resolved against a template's format.

describe('inferColumnTransform', () => {
  it('reads a bank export: parenthesised, CR/DR and currency amounts are amounts', () => {
    expect(inferColumnTransform(['(12.50)', '£7.25 CR', '£1,200.00 DR', '3.10'])).toEqual({
      kind: 'amount',
      decimals: 2,
    });
    expect(inferColumnTransform(['-12,50 €', '1.234,00 €'])).toEqual({
      kind: 'amount',
      decimals: 2,
      decimalSeparator: ',',
    });
  });

  it('gives dates their input pattern, and month-name dates auto', () => {
    expect(inferColumnTransform(['31/01/2024', '01/02/2024'])).toEqual({
      kind: 'date',
      input: 'DD/MM/YYYY',
      output: 'YYYY-MM-DD',
    });
    expect(inferColumnTransform(['01/31/2024', '02/01/2024'])).toMatchObject({ input: 'MM/DD/YYYY' });
    expect(inferColumnTransform(['2024-01-31'])).toMatchObject({ input: 'YYYY-MM-DD' });
    expect(inferColumnTransform(['15 Jan 2024', '3 Feb 2024'])).toMatchObject({
      kind: 'date',
      input: 'auto',
    });
    expect(inferColumnTransform(['01.02.2024', '03.04.2024'])).toMatchObject({ kind: 'date', input: 'auto' });
  });

  it('suggests decimal-comma numbers, yes/no booleans, and nothing for ids, codes and text', () => {
    expect(inferColumnTransform(['1.234,56', '-99,00'])).toEqual({ kind: 'number', decimalSeparator: ',' });
    expect(inferColumnTransform(['yes', 'no', 'Yes'])).toEqual({
      kind: 'boolean',
      output: ['TRUE', 'FALSE'],
    });
    expect(inferColumnTransform(['0', '1', '1'])).toBeNull();
    expect(inferColumnTransform(['00123', '00456'])).toBeNull();
    expect(inferColumnTransform(['Coffee', 'Rent'])).toBeNull();
    expect(inferColumnTransform(['+44 20 7946 0958'])).toBeNull();
    expect(inferColumnTransform(['', ' '])).toBeNull();
  });

  it('pairs debit and credit columns named as such into one debitCredit amount', () => {
    const t = inferColumnTransforms(
      ['Date', 'Soll', 'Haben'],
      [
        ['02.01.2024', '1.234,56', ''],
        ['03.01.2024', '', '99,00'],
      ],
    );
    const pair = { kind: 'debitCredit', debitColumn: 'Soll', creditColumn: 'Haben', decimals: 2 };
    // the dates alone could be either way; the decimal commas of Soll say day-first (mapping/date-hints.ts)
    expect(t).toEqual([{ kind: 'date', input: 'DD.MM.YYYY', output: 'YYYY-MM-DD' }, pair, pair]);
  });
});

describe('quoteStyle all', () => {
  it('quotes every cell, header included, and keeps quoted cells quoted once', async () => {
    const { data } = await applyMappingToBuffer(
      'a,b,c\n1,"x ""y""",\n',
      ['A', 'B', 'C'],
      [
        { templateColumn: 'A', dataColumn: 'a' },
        { templateColumn: 'B', dataColumn: 'b' },
        { templateColumn: 'C', dataColumn: 'c' },
      ],
      { quoteStyle: 'all', lineEnding: '\n' },
    );
    expect(data.toString()).toBe('"A","B","C"\n"1","x ""y""",""\n');
  });

  it('gives the same bytes with two threads', async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => `r${i},${i}.5`).join('\n');
    const args = [
      `k,v\n${rows}\n`,
      ['K', 'V'],
      [
        { templateColumn: 'K', dataColumn: 'k' },
        { templateColumn: 'V', dataColumn: 'v', transform: { kind: 'number' as const } },
      ],
    ] as const;
    const one = await applyMappingToBuffer(...args, { quoteStyle: 'all' });
    const two = await applyMappingToBuffer(...args, { quoteStyle: 'all', threads: 2 });
    expect(two.data.equals(one.data)).toBe(true);
    expect(one.data.toString().split('\r\n')[2]).toBe('"r1","1.5"');
  });
});

describe('inspect line endings', () => {
  it.each([
    ['CRLF', Buffer.from('a,b\r\n1,2\r\n'), '\r\n'],
    ['LF', Buffer.from('a,b\n1,2\n'), '\n'],
    [
      'UTF-16LE CRLF',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a,b\r\n1,2\r\n', 'utf16le')]),
      '\r\n',
    ],
    ['no line end', Buffer.from('a,b'), '\r\n'],
  ])('%s', async (_name, bytes, want) => {
    expect((await inspect(bytes)).lineEnding).toBe(want);
  });

  it('finds CRLF split between chunks', async () => {
    expect((await inspect([Buffer.from('a,b\r'), Buffer.from('\n1,2\n')])).lineEnding).toBe('\r\n');
  });
});

describe('resolveOutputOptions', () => {
  const template = { delimiter: ';', bom: true, lineEnding: '\n' as const, encoding: 'utf-8' };
  it('matches the template by default, explicit options win', () => {
    expect(resolveOutputOptions({}, template)).toMatchObject({
      delimiter: ';',
      bom: true,
      lineEnding: '\n',
      encoding: 'utf-8',
      matchedTemplate: true,
    });
    expect(resolveOutputOptions({ delimiter: '|', bom: false }, template)).toMatchObject({
      delimiter: '|',
      bom: false,
      lineEnding: '\n',
    });
  });
  it('uses the defaults without a template or with matchTemplate false; Windows-1252 never has a BOM', () => {
    const defaults = {
      delimiter: ',',
      bom: false,
      lineEnding: '\r\n',
      encoding: 'utf-8',
      matchedTemplate: false,
    };
    expect(resolveOutputOptions(undefined, null)).toMatchObject(defaults);
    expect(resolveOutputOptions({ matchTemplate: false }, template)).toMatchObject(defaults);
    expect(resolveOutputOptions({}, { ...template, encoding: 'windows-1252' })).toMatchObject({
      encoding: 'windows-1252',
      bom: false,
    });
  });
});

describe('runTotals', () => {
  it('explains rows not written by the limit that cut them', async () => {
    const { stats } = await applyMappingToBuffer(
      'a\n1\n2\n3\n',
      ['A'],
      [{ templateColumn: 'A', dataColumn: 'a' }],
      {
        maxRows: 2,
      },
    );
    const t = runTotals(stats, 3, 'monthlyQuota');
    expect(t).toMatchObject({ rowsInFile: 3, rowsRead: 2, rowsWritten: 2, rowsSkipped: 1 });
    expect(t.skipped).toEqual([
      { reason: 'monthlyQuota', rows: 1, message: "1 row was not written: the month's row quota ran out." },
    ]);
  });

  it('names rows deleted in the review apart from rows cut by the limit', async () => {
    const { stats } = await applyMappingToBuffer(
      'a\n1\n2\n3\n4\n',
      ['A'],
      [{ templateColumn: 'A', dataColumn: 'a' }],
      { maxRows: 3, patch: { edits: new Map(), deleted: new Set([2]) } },
    );
    const t = runTotals(stats, 4, 'rowLimit');
    expect(t).toMatchObject({ rowsInFile: 4, rowsRead: 3, rowsWritten: 2, rowsSkipped: 2 });
    expect(t.skipped.map((s) => [s.reason, s.rows])).toEqual([
      ['deletedInReview', 1],
      ['rowLimit', 1],
    ]);
  });
});
