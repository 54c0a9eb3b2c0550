// The suggester on bank files whose names say little (files without a header row: `Column N`) and on
// payment providers' exports: which column is the transaction amount.
import { suggestColumnMappings, type SuggestedTransform } from './suggester';

const TEMPLATE = ['Date', 'Description', 'Amount'];
const number = (sep: '.' | ',' = '.'): SuggestedTransform => ({ kind: 'number', decimalSeparator: sep });
const date: SuggestedTransform = { kind: 'date', input: 'YYYY-MM-DD', output: 'YYYY-MM-DD' };

/** Columns `Column 1…N` from rows, with the inferred transforms given per column index. */
function headerless(rows: string[][], inferred: Record<number, SuggestedTransform>) {
  const dataColumns = rows[0].map((_, i) => `Column ${i + 1}`);
  const samples: Record<string, string[]> = {};
  dataColumns.forEach((c, i) => (samples[c] = rows.map((r) => r[i])));
  const inf: Record<string, SuggestedTransform | null> = {};
  dataColumns.forEach((c, i) => (inf[c] = inferred[i] ?? null));
  const { mappings } = suggestColumnMappings({
    templateColumns: TEMPLATE,
    dataColumns,
    samples,
    inferred: inf,
  });
  return new Map(mappings.map((m) => [m.templateColumn, m.dataColumn]));
}

describe('the Amount of a file without a header row', () => {
  it('is not a running balance after the amount, newest row first, written before it', () => {
    // date, balance after, amount — newest first: each balance is the next (older) one plus this amount
    const rows = [
      ['2025-03-09', '410.00', '-90.00'],
      ['2025-03-08', '500.00', '120.00'],
      ['2025-03-05', '380.00', '-20.00'],
      ['2025-03-02', '400.00', '-35.50'],
      ['2025-03-01', '435.50', '35.50'],
    ];
    expect(headerless(rows, { 0: date, 1: number(), 2: number() }).get('Amount')).toBe('Column 3');
  });

  it('is not a balance before the amount (oldest first), and never an account number with letters', () => {
    const rows = [
      ['BE71096123456769', '2025-01-02', '1.000,00', '-12,30'],
      ['BE71096123456769', '2025-01-03', '987,70', '250,00'],
      ['BE71096123456769', '2025-01-06', '1.237,70', '-7,70'],
      ['BE71096123456769', '2025-01-07', '1.230,00', '-30,00'],
    ];
    expect(headerless(rows, { 1: date, 2: number(','), 3: number(',') }).get('Amount')).toBe('Column 4');
  });

  it('has its Description from words, never from a column of ids before them', () => {
    const rows = [
      ['2025-06-01', '4TR00012AB99C', 'Card payment Cafe Nord', '-4.20'],
      ['2025-06-02', '9XX00212CD01E', 'Transfer from Jane Smith', '60.00'],
      ['2025-06-04', '1QW00777EF55G', 'Direct debit City Water', '-31.10'],
    ];
    expect(headerless(rows, { 0: date, 3: number() }).get('Description')).toBe('Column 3');
  });

  it('is the one column of amounts when it is the only one', () => {
    const rows = [
      ['2025-04-01', 'Card payment Cafe Nord', '4.20', 'EUR'],
      ['2025-04-02', 'Transfer from Jane Smith', '60.00', 'EUR'],
    ];
    expect(headerless(rows, { 0: date, 2: number() }).get('Amount')).toBe('Column 3');
  });
});

describe("a payment provider's export", () => {
  it('takes Gross (the transaction amount) over Net (after the fee)', () => {
    const dataColumns = ['Date', 'Reference code', 'Net', 'Fee', 'Gross', 'Type'];
    const samples = {
      Date: ['2025-05-01', '2025-05-02', '2025-05-03'],
      'Reference code': ['4TR00012AB99C', '9XX00212CD01E', '1QW00777EF55G'],
      Net: ['48.25', '-20.00', '96.80'],
      Fee: ['-1.75', '0.00', '-3.20'],
      Gross: ['50.00', '-20.00', '100.00'],
      Type: ['Payment received', 'Payment sent', 'Payment received'],
    };
    const inferred = { Date: date, Net: number(), Fee: number(), Gross: number() };
    const { mappings } = suggestColumnMappings({ templateColumns: TEMPLATE, dataColumns, samples, inferred });
    const m = new Map(mappings.map((x) => [x.templateColumn, x.dataColumn]));
    expect(m.get('Amount')).toBe('Gross');
  });
});
