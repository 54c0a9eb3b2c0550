import { Readable } from 'node:stream';
import { MappingError } from './errors';
import { applyMapping, applyMappingToBuffer, validateMappings } from './mapping';
import { previewMapping } from './preview';
import type { ApplyOptions, MappingPair, Transform } from './types';

async function run(
  csv: string | Buffer,
  template: string[],
  mappings: MappingPair[],
  options: ApplyOptions = {},
) {
  const { data, stats } = await applyMappingToBuffer(csv, template, mappings, options);
  return { text: data.toString('utf8'), stats };
}

/** Maps one column through a transform; returns the output values and the stats. */
async function one(values: string[], transform: Transform, options: ApplyOptions = {}) {
  const csv =
    'v\n' +
    values.map((v) => (v === '' || /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join('\n') +
    '\n';
  const r = await run(csv, ['out'], [{ templateColumn: 'out', dataColumn: 'v', transform }], {
    lineEnding: '\n',
    ...options,
  });
  const lines = r.text
    .split('\n')
    .slice(1, -1)
    .map((l) => (l === '""' ? '' : l.replace(/^"(.*)"$/, '$1').replace(/""/g, '"')));
  return { out: lines, stats: r.stats };
}

describe('applyMapping: shape and output options', () => {
  const csv = 'Name,Email,Qty\n"Smith, Anna",anna@x.com,3\nBob,bob@x.com,\n';
  const mappings: MappingPair[] = [
    { templateColumn: 'E-mail', dataColumn: 'Email' },
    { templateColumn: 'Full name', dataColumn: 'Name' },
  ];

  it('reshapes to the template: renamed, reordered, unmapped columns empty, RFC 4180 with CRLF', async () => {
    const r = await run(csv, ['Full name', 'Phone', 'E-mail'], mappings);
    expect(r.text).toBe('Full name,Phone,E-mail\r\n"Smith, Anna",,anna@x.com\r\nBob,,bob@x.com\r\n');
    expect(r.stats).toMatchObject({ rowsIn: 2, rowsOut: 2, truncated: false, warningCount: 0 });
  });

  it('writes another delimiter, LF, a BOM and Windows-1252', async () => {
    const r = await applyMappingToBuffer('a\nZürich;€\n', ['x'], [{ templateColumn: 'x', dataColumn: 'a' }], {
      input: { delimiter: ',' },
      delimiter: ';',
      lineEnding: '\n',
      bom: true,
    });
    expect([...r.data.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(r.data.subarray(3).toString()).toBe('x\n"Zürich;€"\n');
    const w = await applyMappingToBuffer(
      'a\nZürich €  ✓\n',
      ['x'],
      [{ templateColumn: 'x', dataColumn: 'a' }],
      {
        encoding: 'windows-1252',
      },
    );
    expect([...w.data]).toEqual([
      ...Buffer.from('x\r\nZ'),
      0xfc,
      ...Buffer.from('rich '),
      0x80,
      ...Buffer.from('  ?\r\n'),
    ]);
    expect(w.stats.unmappableCharacters).toBe(1);
  });

  it('stops after maxRows and says the output was truncated', async () => {
    const r = await run('a\n1\n2\n3\n', ['a'], [{ templateColumn: 'a', dataColumn: 'a' }], { maxRows: 2 });
    expect(r.text).toBe('a\r\n1\r\n2\r\n');
    expect(r.stats).toMatchObject({ rowsIn: 2, rowsOut: 2, truncated: true });
    const all = await run('a\n1\n2\n', ['a'], [{ templateColumn: 'a', dataColumn: 'a' }], { maxRows: 2 });
    expect(all.stats.truncated).toBe(false);
  });

  it('reports empty required values per row', async () => {
    const r = await run(
      csv,
      ['Full name', 'Qty'],
      [...mappings.slice(1), { templateColumn: 'Qty', dataColumn: 'Qty' }],
      {
        required: ['Qty', 'Full name'],
      },
    );
    expect(r.stats.requiredMissing).toBe(1);
    expect(r.stats.warnings).toEqual([
      { row: 2, column: 'Qty', value: '', reason: 'Required value is empty', rule: 'required' },
    ]);
  });

  it('pads ragged rows and reports them', async () => {
    const r = await run(
      'a,b\n1\n2,3,4\n',
      ['b', 'a'],
      [
        { templateColumn: 'a', dataColumn: 'a' },
        { templateColumn: 'b', dataColumn: 'b' },
      ],
    );
    expect(r.text).toBe('b,a\r\n,1\r\n3,2\r\n');
    expect(r.stats.raggedRows).toBe(2);
    expect(r.stats.warnings[0]).toEqual({
      row: 1,
      column: '',
      value: '',
      reason: 'Row has 1 field, expected 2 (line 2); missing fields left empty',
    });
  });

  it('keeps only the first maxWarnings warnings but counts all', async () => {
    const csv2 = 'd\n' + 'x\n'.repeat(250);
    const r = await run(
      csv2,
      ['d'],
      [{ templateColumn: 'd', dataColumn: 'd', transform: { kind: 'date', output: 'YYYY-MM-DD' } }],
    );
    expect(r.stats.warningCount).toBe(250);
    expect(r.stats.warnings).toHaveLength(100);
  });

  it('rejects impossible mappings before reading', () => {
    expect(() => applyMapping('a\n1\n', ['x'], [{ templateColumn: 'y', dataColumn: 'a' }])).toThrow(
      MappingError,
    );
    expect(() =>
      applyMapping(
        'a\n1\n',
        ['x'],
        [
          { templateColumn: 'x', dataColumn: 'a' },
          { templateColumn: 'x', dataColumn: 'a' },
        ],
      ),
    ).toThrow('Template column "x" is mapped more than once.');
  });

  it('rejects unknown data columns and a column used twice', async () => {
    await expect(run('a\n1\n', ['x'], [{ templateColumn: 'x', dataColumn: 'nope' }])).rejects.toMatchObject({
      code: 'INVALID_MAPPING',
      message: '"nope" (mapped to "x") is not a column of the data file.',
    });
    await expect(
      run(
        'a\n1\n',
        ['x', 'y'],
        [
          { templateColumn: 'x', dataColumn: 'a' },
          { templateColumn: 'y', dataColumn: 'a' },
        ],
      ),
    ).rejects.toMatchObject({ code: 'INVALID_MAPPING' });
  });

  it('emits typed file errors on the stream and rejects the stats', async () => {
    const { output, stats } = applyMapping('a\n"open\n', ['a'], [{ templateColumn: 'a', dataColumn: 'a' }]);
    await expect(
      (async () => {
        for await (const _c of output) void _c;
      })(),
    ).rejects.toMatchObject({ code: 'UNTERMINATED_QUOTE' });
    await expect(stats).rejects.toMatchObject({ code: 'UNTERMINATED_QUOTE' });
  });
});

describe('formula-injection protection (ARCHITECTURE §4, SECURITY-CHECKLIST §6)', () => {
  it('matches the golden cases byte for byte', async () => {
    const r = await one(['=1+2";=1+2', `=1+2'" ;,=1+2`], { kind: 'trim' });
    const raw = await run(
      'v\n"=1+2"";=1+2"\n"=1+2\'"" ;,=1+2"\n',
      ['v'],
      [{ templateColumn: 'v', dataColumn: 'v' }],
    );
    expect(raw.text).toBe(`v\r\n"'=1+2"";=1+2"\r\n"'=1+2'"" ;,=1+2"\r\n`);
    expect(r.out).toEqual([`'=1+2";=1+2`, `'=1+2'" ;,=1+2`]);
  });

  it('guards = @ TAB CR and non-numeric + -, but not numbers or phone numbers', async () => {
    const csv = 'v\n=SUM(A1)\n@cmd\n"\tx"\n"\rx"\n+cmd|x\n-2+3+cmd\n-12.50\n+44 20 7946 0958\n-\n';
    const r = await run(csv, ['v'], [{ templateColumn: 'v', dataColumn: 'v' }], { lineEnding: '\n' });
    expect(r.text).toBe(
      `v\n'=SUM(A1)\n'@cmd\n'\tx\n"'\rx"\n'+cmd|x\n'-2+3+cmd\n-12.50\n+44 20 7946 0958\n'-\n`,
    );
    const off = await run(csv, ['v'], [{ templateColumn: 'v', dataColumn: 'v' }], {
      lineEnding: '\n',
      formulaProtection: false,
    });
    expect(off.text).toBe(`v\n=SUM(A1)\n@cmd\n\tx\n"\rx"\n+cmd|x\n-2+3+cmd\n-12.50\n+44 20 7946 0958\n-\n`);
  });
});

describe('transforms', () => {
  it('date: infers day-first for the whole column from one day > 12', async () => {
    const r = await one(['01/02/2024', '13/02/2024', '03/04/2024'], { kind: 'date', output: 'MM/DD/YYYY' });
    expect(r.out).toEqual(['02/01/2024', '02/13/2024', '04/03/2024']);
    expect(r.stats.inferred[0]).toMatchObject({ dateOrder: 'DMY', fromLocale: false });
  });

  it('date: infers month-first, and year-first ISO', async () => {
    expect((await one(['01/02/2024', '12/31/2024'], { kind: 'date', output: 'YYYY-MM-DD' })).out).toEqual([
      '2024-01-02',
      '2024-12-31',
    ]);
    expect(
      (await one(['2024-03-05', '2024-12-01T10:30:00Z'], { kind: 'date', output: 'D.M.YY' })).out,
    ).toEqual(['5.3.24', '1.12.24']);
  });

  it('date: an ambiguous column falls back to the locale hint and is reported', async () => {
    const r = await one(
      ['01/02/2024', '03/04/2024'],
      { kind: 'date', output: 'YYYY-MM-DD' },
      { locale: { dateOrder: 'DMY' } },
    );
    expect(r.out).toEqual(['2024-02-01', '2024-04-03']);
    expect(r.stats.inferred[0]).toMatchObject({ dateOrder: 'DMY', fromLocale: true });
    expect(r.stats.warnings[0]).toMatchObject({ row: 0, column: 'out' });
    expect(r.stats.warnings[0].reason).toContain('day-first');
  });

  it('date: an ambiguous column in a file with amounts in £ or € is read day-first; in $ month-first', async () => {
    const mappings: MappingPair[] = [
      { templateColumn: 'Date', dataColumn: 'Date', transform: { kind: 'date', output: 'YYYY-MM-DD' } },
      { templateColumn: 'Amount', dataColumn: 'Amount', transform: { kind: 'amount' } },
    ];
    for (const [money, dates, order] of [
      ['£', '2026-11-01,2026-11-02', 'DMY'],
      ['€', '2026-11-01,2026-11-02', 'DMY'],
      ['$', '2026-01-11,2026-02-11', 'MDY'],
    ] as const) {
      const r = await run(
        `Date,Amount\n01/11/2026,${money}12.50\n02/11/2026,${money}7.25 CR\n`,
        ['Date', 'Amount'],
        mappings,
        { lineEnding: '\n' },
      );
      const [a, b] = dates.split(',');
      expect(r.text).toBe(`Date,Amount\n${a},12.50\n${b},7.25\n`);
      expect(r.stats.inferred[0]).toMatchObject({ column: 'Date', dateOrder: order, fromLocale: true });
      expect(r.stats.warnings[0].reason).toContain(
        order === 'DMY' ? 'day-first (DD/MM)' : 'month-first (MM/DD)',
      );
    }
  });

  it('date: an input pattern that is not text (JSON number, object, null) is a 400 mapping error, not a crash', () => {
    for (const input of [20240315, { pattern: 'DD/MM/YYYY' }, ['DD/MM/YYYY'], null, true]) {
      const mappings = [
        { templateColumn: 'out', dataColumn: 'v', transform: { kind: 'date', output: 'YYYY-MM-DD', input } },
      ] as unknown as MappingPair[];
      let thrown: unknown;
      try {
        validateMappings(['out'], mappings);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(MappingError);
      expect(thrown).toMatchObject({ code: 'INVALID_MAPPING', status: 400 });
      expect((thrown as Error).message).toContain('date input pattern for "out"');
      expect(() => applyMapping('v\n1\n', ['out'], mappings)).toThrow(MappingError);
    }
  });

  it('date: explicit input pattern, month names, and unreadable values passed through with a warning', async () => {
    const r = await one(['20240315', '15 Mar 2024', 'March 15, 2024', 'soon', '31/02/2024', ''], {
      kind: 'date',
      input: 'YYYYMMDD',
      output: 'DD/MM/YYYY',
    });
    expect(r.out).toEqual(['15/03/2024', '15/03/2024', '15/03/2024', 'soon', '31/02/2024', '']);
    expect(r.stats.warnings.map((w) => [w.row, w.value])).toEqual([
      [4, 'soon'],
      [5, '31/02/2024'],
    ]);
    expect(r.stats.warnings[0]).toEqual({ row: 4, column: 'out', value: 'soon', reason: 'Not a date' });
  });

  it('number: decimal comma per column, thousands removed, decimals rounded', async () => {
    expect((await one(['1.234,56', '-7,5', '1.000'], { kind: 'number' })).out).toEqual([
      '1234.56',
      '-7.5',
      '1000',
    ]);
    expect((await one(['1,234.56', '0.125'], { kind: 'number', decimals: 2 })).out).toEqual([
      '1234.56',
      '0.13',
    ]);
    expect((await one(['12,50'], { kind: 'number', decimalSeparator: '.' })).out).toEqual(['12,50']);
  });

  it('amount: currency, parentheses, trailing minus, CR/DR', async () => {
    const r = await one(
      ['$1,234.50', '(12.50)', '12.50-', '12.50 CR', '12.50 DR', 'EUR 3', '€ -0.004', '£7', 'n/a'],
      { kind: 'amount' },
    );
    expect(r.out).toEqual(['1234.50', '-12.50', '-12.50', '12.50', '-12.50', '3.00', '0.00', '7.00', 'n/a']);
    expect(r.stats.warnings).toEqual([
      { row: 9, column: 'out', value: 'n/a', reason: 'Not an amount: not a number' },
    ]);
    const p = await one(['-5', '5'], { kind: 'amount', negative: 'parentheses', decimals: 0 });
    expect(p.out).toEqual(['(5)', '5']);
  });

  it('amount: decimal comma detected per column', async () => {
    expect((await one(['1.234,56', '7,10'], { kind: 'amount' })).out).toEqual(['1234.56', '7.10']);
  });

  it('boolean, constant, trim, upper, lower', async () => {
    expect(
      (await one(['Ja', 'nein', 'Y', '0', 'maybe', ''], { kind: 'boolean', output: ['TRUE', 'FALSE'] })).out,
    ).toEqual(['TRUE', 'FALSE', 'TRUE', 'FALSE', 'maybe', '']);
    expect((await one(['  a b  '], { kind: 'trim' })).out).toEqual(['a b']);
    expect((await one(['straße'], { kind: 'upper' })).out).toEqual(['STRASSE']);
    expect((await one(['ÉCOLE'], { kind: 'lower' })).out).toEqual(['école']);
    const c = await run(
      'a\n1\n2\n',
      ['a', 'Status'],
      [
        { templateColumn: 'a', dataColumn: 'a' },
        { templateColumn: 'Status', dataColumn: '', transform: { kind: 'constant', value: 'active, paid' } },
      ],
    );
    expect(c.text).toBe('a,Status\r\n1,"active, paid"\r\n2,"active, paid"\r\n');
  });

  it('debitCredit: one signed amount from two columns, with control totals', async () => {
    const csv = 'Date;Soll;Haben\n01.01.2024;12,50;\n02.01.2024;;1.000,00\n03.01.2024;-3,00;\n04.01.2024;;\n';
    const r = await run(
      csv,
      ['Amount'],
      [
        {
          templateColumn: 'Amount',
          dataColumn: '',
          transform: { kind: 'debitCredit', debitColumn: 'Soll', creditColumn: 'Haben' },
        },
      ],
      { lineEnding: '\n' },
    );
    expect(r.text).toBe('Amount\n-12.50\n1000.00\n-3.00\n""\n');
    expect(r.stats.controlTotals).toEqual([
      {
        column: 'Amount',
        kind: 'debitCredit',
        sourceColumns: ['Soll', 'Haben'],
        sourceTotal: '984.50',
        outputTotal: '984.50',
        values: 3,
        unreadable: 0,
      },
    ]);
  });

  it('control totals for amount and number columns show source and output sums', async () => {
    const r = await run(
      'a;b\n"1.234,565";1,5\n-0,004;x\n',
      ['A', 'B'],
      [
        { templateColumn: 'A', dataColumn: 'a', transform: { kind: 'amount' } },
        { templateColumn: 'B', dataColumn: 'b', transform: { kind: 'number' } },
      ],
    );
    expect(r.stats.controlTotals).toEqual([
      {
        column: 'A',
        kind: 'amount',
        sourceColumns: ['a'],
        sourceTotal: '1234.561',
        outputTotal: '1234.57',
        values: 2,
        unreadable: 0,
      },
      {
        column: 'B',
        kind: 'number',
        sourceColumns: ['b'],
        sourceTotal: '1.5',
        outputTotal: '1.5',
        values: 1,
        unreadable: 1,
      },
    ]);
  });
});

describe('previewMapping', () => {
  it('returns the first rows without reading the whole input', async () => {
    let pulled = 0;
    function* endless() {
      yield Buffer.from('id,name\n');
      for (let i = 1; ; i++) {
        pulled++;
        yield Buffer.from(`${i},name ${i}\n`.repeat(100));
      }
    }
    const p = await previewMapping(
      Readable.from(endless()),
      ['Name', 'ID'],
      [
        { templateColumn: 'Name', dataColumn: 'name' },
        { templateColumn: 'ID', dataColumn: 'id' },
      ],
      { rows: 3 },
    );
    expect(p.headers).toEqual(['Name', 'ID']);
    expect(p.rows).toEqual([
      ['name 1', '1'],
      ['name 1', '1'],
      ['name 1', '1'],
    ]);
    expect(p.stats.truncated).toBe(true);
    expect(pulled).toBeLessThan(1000);
  });
});
