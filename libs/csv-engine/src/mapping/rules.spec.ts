// Template rules, chains and patches through applyMapping (the engine's entry point), in one streaming pass.
import { Readable } from 'node:stream';
import { MappingError } from '../errors';
import { applyMappingToBuffer } from '../mapping';
import type { ApplyOptions, MappingPair } from '../types';
import { checkValue, compileRules, UniqueSet } from './rules';

async function run(csv: string | Buffer[], headers: string[], pairs: unknown[], options: ApplyOptions = {}) {
  const input = Array.isArray(csv) ? Readable.from(csv) : csv;
  // Generated files of a few odd values can read as headerless or with a header further down; these tests
  // are about mapping, so the header is named (detection has its own tests in sniff.spec).
  const { data, stats } = await applyMappingToBuffer(input, headers, pairs as MappingPair[], {
    lineEnding: '\n',
    ...options,
    input: { headerRow: 1, ...options.input },
  });
  return { text: data.toString('utf8'), stats };
}

/**
 * One column mapped twice: with `transform` alone (the byte path) and with a no-op step after it (a
 * chain, the text path). The two must agree.
 */
async function bytePathAndTextPath(
  csv: string,
  pair: { templateColumn: string; dataColumn: string },
  transform: unknown,
  options: ApplyOptions,
) {
  const headers = [pair.templateColumn];
  const bytes = await run(csv, headers, [{ ...pair, transform }], options);
  const text = await run(
    csv,
    headers,
    [{ ...pair, transform: [transform, { kind: 'default', value: '' }] }],
    options,
  );
  return { bytes, text };
}

/** A combine into column X (no data column of its own) on both paths. */
const combineBothPaths = (csv: string, pattern: string, options: ApplyOptions) =>
  bytePathAndTextPath(csv, { templateColumn: 'X', dataColumn: '' }, { kind: 'combine', pattern }, options);

const problems = (type: Parameters<typeof compileRules>[0], values: string[]) => {
  const c = compileRules(type, 'col');
  if (!c) return values.map(() => []);
  return values.map((v, k) => {
    const out: string[] = [];
    checkValue(c, v, k + 1, (rule) => out.push(rule));
    return out;
  });
};

describe('rules', () => {
  it('type checks: number, amount, date with format, boolean, email, url', () => {
    expect(problems({ type: 'number' }, ['12', '-1.5', '1e3', '1,5', 'x'])).toEqual([
      [],
      [],
      [],
      ['type'],
      ['type'],
    ]);
    expect(problems({ type: 'amount' }, ['19.99', '-3', '(4.00)', '$5', '1x2'])).toEqual([
      [],
      [],
      [],
      ['type'],
      ['type'],
    ]);
    expect(
      problems({ type: 'date', format: 'MM/DD/YYYY' }, ['02/29/2024', '02/29/2023', '2024-01-01']),
    ).toEqual([[], ['type'], ['type']]);
    expect(problems({ type: 'date' }, ['2024-12-31', '2024-13-01'])).toEqual([[], ['type']]);
    expect(problems({ type: 'boolean' }, ['TRUE', 'no', 'maybe'])).toEqual([[], [], ['type']]);
    expect(problems({ type: 'email' }, ['a@b.co', 'a@b', 'a b@c.d'])).toEqual([[], ['type'], ['type']]);
    expect(problems({ type: 'url' }, ['https://x.org/a', 'ftp://x.org', 'x.org'])).toEqual([
      [],
      ['type'],
      ['type'],
    ]);
  });

  it('maxLength counts user-perceived characters; allowed is exact', () => {
    expect(problems({ maxLength: 2 }, ['😀😀', 'e\u0301e\u0301', 'abc'])).toEqual([[], [], ['maxLength']]);
    expect(problems({ allowed: ['active', 'draft'] }, ['draft', 'Draft'])).toEqual([[], ['allowed']]);
  });

  it('unique remembers the first row of each value, short values as text and long ones as a hash', () => {
    const u = new UniqueSet();
    const long = 'x'.repeat(100);
    expect([u.add('a', 1), u.add(long, 2), u.add('b', 3), u.add('a', 4), u.add(long, 5)]).toEqual([
      0, 0, 0, 1, 2,
    ]);
    expect(u.add(`${long}y`, 6)).toBe(0);
  });

  it('refuses rules that cannot be checked', () => {
    expect(() => compileRules({ type: 'date', format: 'DD.MM' }, 'Date')).toThrow(MappingError);
    expect(() => compileRules({ type: 'colour' as 'text' }, 'x')).toThrow(/Unknown rule type/);
    expect(compileRules({ required: true }, 'x')).toBeNull();
  });
});

describe('applyMapping with chains, rules and a patch', () => {
  const csv =
    'First,Last,Full,Title,Price,Code\nAna,Cruz,"Cruz, Ana",Blue Mug,12.5,Y\n,Smith,Bob Smith,,1x2,N\nAna,Cruz,Ana Cruz,Blue Mug!,3,?\n';
  const headers = ['Name', 'Handle', 'Title', 'Price', 'Last', 'Flag'];
  const pairs = [
    {
      templateColumn: 'Name',
      dataColumn: '',
      transform: [
        { kind: 'combine', pattern: '{First} {Last}' },
        { kind: 'upper' },
        { kind: 'truncate', length: 6 },
      ],
    },
    { templateColumn: 'Handle', dataColumn: 'Title', transform: { kind: 'slug' } },
    { templateColumn: 'Title', dataColumn: 'Title', transform: { kind: 'trim' } },
    {
      templateColumn: 'Price',
      dataColumn: 'Price',
      transform: [{ kind: 'amount' }, { kind: 'default', value: '0.00' }],
    },
    {
      templateColumn: 'Last',
      dataColumn: 'Full',
      transform: { kind: 'split', preset: 'personName', part: 'last' },
    },
    {
      templateColumn: 'Flag',
      dataColumn: 'Code',
      transform: { kind: 'mapValues', table: { Y: 'TRUE', N: 'FALSE' }, otherwise: { value: 'FALSE' } },
    },
  ];
  const templateRules = {
    Title: { required: true },
    Price: { type: 'amount' as const },
    Handle: { unique: true },
  };

  it('maps every transform of the chain and reports each failing cell with its rule, counted by rule', async () => {
    const { text, stats } = await run(csv, headers, pairs, { templateRules });
    expect(text).toBe(
      [
        'Name,Handle,Title,Price,Last,Flag',
        'ANA CR,blue-mug,Blue Mug,12.50,Cruz,TRUE',
        'SMITH,,,1x2,Smith,FALSE',
        'ANA CR,blue-mug,Blue Mug!,3.00,Cruz,FALSE',
        '',
      ].join('\n'),
    );
    expect(stats.warnings).toEqual([
      {
        row: 1,
        column: 'Name',
        value: 'ANA CRUZ',
        reason: 'Cut to 6 characters (it had 8)',
        rule: 'truncate',
      },
      { row: 2, column: 'Title', value: '', reason: 'Required value is empty', rule: 'required' },
      { row: 2, column: 'Price', value: '1x2', reason: expect.stringMatching(/^Not an amount/) },
      {
        row: 2,
        column: 'Price',
        value: '1x2',
        reason: '"1x2" is not an amount (write it like 19.99, without currency)',
        rule: 'type',
      },
      {
        row: 3,
        column: 'Name',
        value: 'ANA CRUZ',
        reason: 'Cut to 6 characters (it had 8)',
        rule: 'truncate',
      },
      {
        row: 3,
        column: 'Handle',
        value: 'blue-mug',
        reason: 'The same value is in row 1; each row needs its own',
        rule: 'unique',
      },
    ]);
    expect(stats.warningsByRule).toEqual({ truncate: 2, required: 1, type: 1, unique: 1, other: 1 });
    // The Price control total still counts what the amount transform read.
    expect(stats.controlTotals).toEqual([
      expect.objectContaining({ column: 'Price', values: 2, unreadable: 1 }),
    ]);
  });

  it('is the same whatever the input chunking (streaming), and with threads asked for', async () => {
    const whole = await run(csv, headers, pairs, { templateRules });
    const bytes = Buffer.from(csv);
    for (const cut of [1, 7, 33, 60]) {
      const chunks = [bytes.subarray(0, cut), bytes.subarray(cut)];
      const split = await run(chunks, headers, pairs, { templateRules, threads: 2 });
      expect(split.text).toBe(whole.text);
      expect(split.stats.warningsByRule).toEqual(whole.stats.warningsByRule);
    }
  });

  it('a patch changes exactly the cells it names (an edited source feeds its derived columns) and drops deleted rows', async () => {
    const plain = await run(csv, headers, pairs, { templateRules });
    const patch = {
      edits: new Map([
        [
          2,
          new Map([
            ['Title', 'Green Bowl'],
            ['Price', '9.99'],
          ]),
        ],
        [1, new Map([['Flag', 'FALSE']])],
      ]),
      deleted: new Set([3]),
    };
    const { text, stats } = await run(csv, headers, pairs, { templateRules, patch });
    const before = plain.text.split('\n');
    const after = text.split('\n');
    expect(after).toEqual([
      before[0],
      before[1].replace(/TRUE$/, 'FALSE'),
      'SMITH,green-bowl,Green Bowl,9.99,Smith,FALSE',
      '',
    ]);
    expect(stats.corrections).toEqual({ cellsEdited: 3, rowsEdited: 2, rowsDeleted: 1 });
    expect(stats.rowsIn).toBe(3);
    expect(stats.rowsOut).toBe(2);
    expect(stats.warningsByRule).toEqual({ truncate: 1 });
  });

  it('an edit is checked against the rules like any value', async () => {
    const patch = { edits: new Map([[1, new Map([['Price', 'free']])]]), deleted: new Set<number>() };
    const { stats } = await run(csv, headers, pairs, { templateRules, patch });
    expect(stats.warnings).toContainEqual(
      expect.objectContaining({ row: 1, column: 'Price', value: 'free', rule: 'type' }),
    );
  });

  it('a data column may feed derived columns as well as its own; refuses chains in the wrong order', async () => {
    await expect(
      run(
        csv,
        ['A'],
        [{ templateColumn: 'A', dataColumn: 'Price', transform: [{ kind: 'trim' }, { kind: 'amount' }] }],
      ),
    ).rejects.toThrow(/must be the first transform/);
    await expect(
      run(
        csv,
        ['A'],
        [{ templateColumn: 'A', dataColumn: '', transform: { kind: 'combine', pattern: '{Nope}' } }],
      ),
    ).rejects.toThrow(/"Nope".*not a column of the data file/);
    await expect(run(csv, ['A'], [], { templateRules: { B: { required: true } } })).rejects.toThrow(/"B"/);
  });

  it('rules on an unmapped column check its (empty) cells', async () => {
    const { stats } = await run(csv, ['A', 'B'], [{ templateColumn: 'A', dataColumn: 'First' }], {
      templateRules: { B: { required: true }, A: { required: true } },
    });
    expect(stats.warningsByRule).toEqual({ required: 4 });
  });
});

describe('type checks on bytes', () => {
  it('property: number, amount and email on bytes agree with the text check', async () => {
    const fc = (await import('fast-check')).default;
    // Printable ASCII and tab: the text checks' \\s also knows Unicode spaces, and lets control bytes
    // through that the byte check refuses (neither comes up in a real address).
    const unit = fc.constantFrom(...'a1.@-+eE()"[]\\<>,;: \t\x7f'.split(''));
    const text = fc.string({ unit, maxLength: 8 });
    // Random text, and text shaped like an address so the accepting side is reached too.
    const value = fc.oneof(
      text,
      fc.tuple(text, text, text).map(([a, b, c]) => `${a}@${b}.${c}`),
    );
    for (const type of ['number', 'amount', 'email'] as const) {
      const c = compileRules({ type }, 'col');
      if (c?.check == null || c.checkBytes === null) throw new Error(`no byte check for ${type}`);
      const { check, checkBytes } = c;
      fc.assert(
        fc.property(value, (v) => {
          const b = Buffer.from(`x${v}y`);
          expect(checkBytes(b, 1, b.length - 1)).toBe(check(v) === null);
        }),
        { numRuns: 3000 },
      );
    }
  });
});

describe('number rules on a number column', () => {
  it('property: the byte op (which skips the check of numbers it wrote) warns as the text path does', async () => {
    const fc = (await import('fast-check')).default;
    const { writeCsv } = await import('../writer');
    const value = fc.string({
      unit: fc.constantFrom('1', '0', '9', '.', ',', '-', '+', '(', ')', 'e', ' ', 'x', '€'),
      maxLength: 8,
    });
    const transform = fc.constantFrom(
      { kind: 'amount' },
      { kind: 'amount', negative: 'parentheses' },
      { kind: 'amount', decimals: 0 },
      { kind: 'number' },
      { kind: 'number', decimals: 3 },
    );
    const type = fc.constantFrom('amount', 'number');
    await fc.assert(
      fc.asyncProperty(
        fc.array(value, { minLength: 1, maxLength: 6 }),
        transform,
        type,
        async (rows, t, ty) => {
          const csv = writeCsv([['V'], ...rows.map((v) => [v])], {
            lineEnding: '\n',
            formulaProtection: false,
          });
          const options: ApplyOptions = {
            templateRules: { N: { type: ty as 'amount' | 'number' } },
            input: { delimiter: ',' },
          };
          const { bytes, text } = await bytePathAndTextPath(
            csv,
            { templateColumn: 'N', dataColumn: 'V' },
            t,
            options,
          );
          expect(bytes.text).toBe(text.text);
          expect(bytes.stats.warnings).toEqual(text.stats.warnings);
          expect(bytes.stats.warningsByRule).toEqual(text.stats.warningsByRule);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('combine on bytes (a combine alone) and on text (a combine in a chain)', () => {
  it('property: both paths write the same cell as combineValues', async () => {
    const fc = (await import('fast-check')).default;
    const { combineValues, parseCombinePattern } = await import('./transforms/strings');
    const { parseCsv } = await import('../parse');
    const { writeCsv } = await import('../writer');
    const value = fc.string({
      unit: fc.constantFrom('a', 'B', ' ', '\t', ',', '"', 'é', '😀', '=', '-', '\n'),
      maxLength: 6,
    });
    const pattern = fc.constantFrom('{A} {B}', '{A}, {B} ({C})', 'x{A}{B}{C}y', ' {C} - {A} ');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(value, value, value), { minLength: 1, maxLength: 5 }),
        pattern,
        async (rows, pat) => {
          const csv = writeCsv([['A', 'B', 'C'], ...rows], { lineEnding: '\n' });
          const parsed = parseCombinePattern(pat, 'X');
          const bytes = await run(
            csv,
            ['X'],
            [{ templateColumn: 'X', dataColumn: '', transform: { kind: 'combine', pattern: pat } }],
            {
              formulaProtection: false,
            },
          );
          const text = await run(
            csv,
            ['X'],
            [
              {
                templateColumn: 'X',
                dataColumn: '',
                transform: [
                  { kind: 'combine', pattern: pat },
                  { kind: 'default', value: '' },
                ],
              },
            ],
            { formulaProtection: false },
          );
          expect(bytes.text).toBe(text.text);
          const cells = parseCsv(Buffer.from(bytes.text), {
            header: false,
            delimiter: ',',
            encoding: 'utf-8',
          }).rows.slice(1);
          const source = parseCsv(Buffer.from(csv), {
            header: false,
            delimiter: ',',
            encoding: 'utf-8',
          }).rows.slice(1);
          cells.forEach((cell, k) => {
            const want = combineValues(
              parsed,
              parsed.cols.map((c) => source[k]['ABC'.indexOf(c)] ?? ''),
            );
            expect(cell[0] ?? '').toBe(want);
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('both paths agree on malformed fields, long values and a column used many times', async () => {
    const long = 'x'.repeat(300);
    const csv = [
      'A,B',
      'ab"c,d',
      `"q" tail,${long}`,
      `${long},"${long}, ""${long}"""`,
      '"=1+2", @x ',
      '+1 555,-x',
      '',
    ].join('\n');
    for (const pat of ['{A} {B}', '{B}{B}{B}{B}{B}{B}{B}{B}{A}', '({A}) {B}']) {
      for (const formulaProtection of [true, false]) {
        const { bytes, text } = await combineBothPaths(csv, pat, { formulaProtection });
        expect(bytes.text).toBe(text.text);
      }
    }
  });

  it('property: both paths agree with formula protection, other delimiters and quotes in the pattern', async () => {
    const fc = (await import('fast-check')).default;
    const { writeCsv } = await import('../writer');
    // The byte path reads the parser's field flags to decide the quotes: so the file's delimiter and the
    // output's vary, and values hold formula starts, quotes and both delimiters.
    const value = fc.string({
      unit: fc.constantFrom('a', ' ', '\t', ',', ';', '"', 'é', '=', '@', '+', '-', '1', '(', '\n', '\r'),
      maxLength: 6,
    });
    const pattern = fc.constantFrom(
      '{A} {B}',
      '{A}, {B} ({C})',
      '{A};{B}',
      '"{A}" {B}',
      '= {C}',
      '+{A}',
      ' \n{A}\n{B} ',
      '{C}-{A}',
    );
    const delimiter = fc.constantFrom<',' | ';' | '\t'>(',', ';', '\t');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(value, value, value), { minLength: 1, maxLength: 5 }),
        pattern,
        delimiter,
        delimiter,
        fc.boolean(),
        async (rows, pat, inDelim, outDelim, formulaProtection) => {
          // Written unprotected: the values reach the engine as they are, formula starts and all.
          const csv = writeCsv([['A', 'B', 'C'], ...rows], {
            lineEnding: '\n',
            delimiter: inDelim,
            formulaProtection: false,
          });
          const options: ApplyOptions = {
            formulaProtection,
            delimiter: outDelim,
            input: { delimiter: inDelim },
          };
          const { bytes, text } = await combineBothPaths(csv, pat, options);
          expect(bytes.text).toBe(text.text);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('rules on cells quoted on output', () => {
  it("checks a value that starts with its own apostrophe as it is; a guarded value without the writer's apostrophe", async () => {
    // `'-1,2` is data (an apostrophe the user wrote): 5 characters, over maxLength 4, and written with no
    // guard. `-x,y` gets the guard apostrophe on output; the rule sees the value's own 4 characters.
    const csv = `A\n"'-1,2"\n"-x,y"\n`;
    const r = await run(csv, ['A'], [{ templateColumn: 'A', dataColumn: 'A' }], {
      templateRules: { A: { maxLength: 4 } },
    });
    expect(r.text).toBe(`A\n"'-1,2"\n"'-x,y"\n`);
    expect(r.stats.warnings.map((w) => [w.row, w.value])).toEqual([[1, "'-1,2"]]);
  });
});
