import { columnsReadBy, detectSourceDrift, renamePairColumns, type DriftPair } from './source-drift';

const BANK_PAIRS: DriftPair[] = [
  {
    templateColumn: 'Date',
    dataColumn: 'Date',
    transform: { kind: 'date', input: 'auto', output: 'YYYY-MM-DD' },
  },
  { templateColumn: 'Payee', dataColumn: 'Description' },
  { templateColumn: 'Amount', dataColumn: 'Amount', transform: { kind: 'amount', decimals: 2 } },
];

const samplesOf = (headers: string[], rows: string[][]): Record<string, string[]> =>
  Object.fromEntries(headers.map((h, k) => [h, rows.map((r) => r[k] ?? '')]));

describe('detectSourceDrift', () => {
  it('an unchanged file has no changes and keeps the saved pairs', () => {
    const headers = ['Date', 'Description', 'Amount'];
    const d = detectSourceDrift({
      savedHeaders: headers,
      pairs: BANK_PAIRS,
      headers,
      samples: samplesOf(headers, [['2026-10-01', 'Coffee', '-3.50']]),
    });
    expect(d).toEqual({
      added: [],
      removed: [],
      renamed: [],
      missing: [],
      score: 1,
      adaptedPairs: BANK_PAIRS,
    });
  });

  it("'Amount' became 'Amount (EUR)' and a Category column was added", () => {
    const headers = ['Date', 'Description', 'Amount (EUR)', 'Category'];
    const d = detectSourceDrift({
      savedHeaders: ['Date', 'Description', 'Amount'],
      pairs: BANK_PAIRS,
      headers,
      samples: samplesOf(headers, [
        ['2026-11-01', 'Coffee', '-3.50', 'Food'],
        ['2026-11-02', 'Salary', '2500.00', 'Income'],
        ['2026-11-03', 'Rent', '-900.00', 'Housing'],
      ]),
    });
    expect(d.renamed).toEqual([{ from: 'Amount', to: 'Amount (EUR)' }]);
    expect(d.added).toEqual(['Category']);
    expect(d.removed).toEqual([]);
    expect(d.missing).toEqual([]);
    expect(d.score).toBe(0.75);
    expect(d.adaptedPairs[2]).toEqual({
      templateColumn: 'Amount',
      dataColumn: 'Amount (EUR)',
      transform: { kind: 'amount', decimals: 2 },
    });
    expect(d.adaptedPairs.slice(0, 2)).toEqual(BANK_PAIRS.slice(0, 2));
  });

  it('a column whose new name and values say nothing of the old one is removed + added, its pair left out', () => {
    const headers = ['Date', 'Description', 'Field 7'];
    const d = detectSourceDrift({
      savedHeaders: ['Date', 'Description', 'Amount'],
      pairs: BANK_PAIRS,
      headers,
      samples: samplesOf(headers, [
        ['2026-11-01', 'Coffee', 'AB-1'],
        ['2026-11-02', 'Salary', 'CD-2'],
      ]),
    });
    expect(d.renamed).toEqual([]);
    expect(d.removed).toEqual(['Amount']);
    expect(d.added).toEqual(['Field 7']);
    expect(d.missing).toEqual(['Amount']);
    expect(d.adaptedPairs.map((p) => p.templateColumn)).toEqual(['Date', 'Payee']);
  });

  it('a date column renamed to a name that means a date but holds text is no rename', () => {
    const headers = ['Booking date', 'Description', 'Amount'];
    const d = detectSourceDrift({
      savedHeaders: ['Date', 'Description', 'Amount'],
      pairs: BANK_PAIRS,
      headers,
      samples: samplesOf(headers, [
        ['pending', 'Coffee', '-3.50'],
        ['pending', 'Salary', '2500.00'],
        ['cleared', 'Rent', '-900.00'],
      ]),
    });
    expect(d.renamed).toEqual([]);
    expect(d.removed).toEqual(['Date']);
  });

  it('the same name written differently is a rename (the engine reads names exactly)', () => {
    const headers = ['date', 'Description', 'Amount'];
    const d = detectSourceDrift({
      savedHeaders: ['Date', 'Description', 'Amount'],
      pairs: BANK_PAIRS,
      headers,
      samples: samplesOf(headers, [['2026-11-01', 'Coffee', '-3.50']]),
    });
    expect(d.renamed).toEqual([{ from: 'Date', to: 'date' }]);
    expect(d.adaptedPairs[0].dataColumn).toBe('date');
    expect(d.score).toBe(1);
  });

  it('German headers renamed to English ones are found by meaning and values', () => {
    const headers = ['Date', 'Description', 'Amount'];
    const d = detectSourceDrift({
      savedHeaders: ['Buchungstag', 'Description', 'Betrag'],
      pairs: [
        {
          templateColumn: 'Date',
          dataColumn: 'Buchungstag',
          transform: { kind: 'date', output: 'YYYY-MM-DD' },
        },
        { templateColumn: 'Memo', dataColumn: 'Description' },
        { templateColumn: 'Amount', dataColumn: 'Betrag', transform: { kind: 'amount' } },
      ],
      headers,
      samples: samplesOf(headers, [
        ['01.11.2026', 'Kaffee', '-3,50'],
        ['02.11.2026', 'Gehalt', '2.500,00'],
      ]),
    });
    expect(d.renamed).toEqual([
      { from: 'Buchungstag', to: 'Date' },
      { from: 'Betrag', to: 'Amount' },
    ]);
    expect(d.adaptedPairs.map((p) => p.dataColumn)).toEqual(['Date', 'Description', 'Amount']);
    expect(d.score).toBe(1);
  });
  it('does not look for renames when even renaming every removed column could not reach minScore', () => {
    const headers = ['Amount (EUR)', 'Category', 'Memo', 'Id'];
    const input = {
      savedHeaders: ['Date', 'Description', 'Amount'],
      pairs: BANK_PAIRS,
      headers,
      samples: samplesOf(headers, [['-3.50', 'Food', 'x', '1']]),
    };
    expect(detectSourceDrift(input).renamed).toContainEqual({ from: 'Amount', to: 'Amount (EUR)' });
    const capped = detectSourceDrift({ ...input, minScore: 0.9 });
    expect(capped.renamed).toEqual([]);
    expect(capped.score).toBe(0);
  });
});

describe('pair columns', () => {
  it('reads and renames the columns of debit/credit, combine, coalesce and sign steps', () => {
    const pairs: DriftPair[] = [
      {
        templateColumn: 'Amount',
        dataColumn: '',
        transform: { kind: 'debitCredit', debitColumn: 'Paid out', creditColumn: 'Paid in' },
      },
      {
        templateColumn: 'Name',
        dataColumn: '',
        transform: [{ kind: 'combine', pattern: '{First} {{x}} {Last}' }, { kind: 'trim' }],
      },
      {
        templateColumn: 'Phone',
        dataColumn: '',
        transform: { kind: 'coalesce', columns: ['Mobile', 'Home'] },
      },
      {
        templateColumn: 'Value',
        dataColumn: 'Bedrag',
        transform: { kind: 'amount', sign: { column: 'Af Bij', negative: ['Af'] } },
      },
    ];
    expect(pairs.map(columnsReadBy)).toEqual([
      ['Paid out', 'Paid in'],
      ['First', 'Last'],
      ['Mobile', 'Home'],
      ['Bedrag', 'Af Bij'],
    ]);
    const up = (c: string) => c.toUpperCase();
    expect(pairs.map((p) => renamePairColumns(p, up))).toEqual([
      {
        templateColumn: 'Amount',
        dataColumn: '',
        transform: { kind: 'debitCredit', debitColumn: 'PAID OUT', creditColumn: 'PAID IN' },
      },
      {
        templateColumn: 'Name',
        dataColumn: '',
        transform: [{ kind: 'combine', pattern: '{FIRST} {{x}} {LAST}' }, { kind: 'trim' }],
      },
      {
        templateColumn: 'Phone',
        dataColumn: '',
        transform: { kind: 'coalesce', columns: ['MOBILE', 'HOME'] },
      },
      {
        templateColumn: 'Value',
        dataColumn: 'BEDRAG',
        transform: { kind: 'amount', sign: { column: 'AF BIJ', negative: ['Af'] } },
      },
    ]);
  });
});
