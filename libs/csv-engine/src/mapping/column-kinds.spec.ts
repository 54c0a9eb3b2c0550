// Upload-time inference of bank columns from values alone (files without a header row, issue 26): debit
// and credit columns filled by turns, a direction column that only repeats an amount's own signs, and
// lines of words in a date column.
import { applyMappingToBuffer } from '../mapping';
import { CsvInspector } from '../inspect';
import type { MappingPair } from '../types';
import { inferColumnTransforms } from './column-kinds';

const cols = (n: number) => Array.from({ length: n }, (_, i) => `Column ${i + 1}`);
const split = (text: string, d: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => l.split(d));

describe('debit and credit columns filled by turns (no header row)', () => {
  // date | text | paid out | paid in | balance — none of the amounts signed
  const UNSIGNED =
    '03/01/2025|Bakery|2.40||97.60\n' +
    '04/01/2025|Refund|||\n' +
    '06/01/2025|Salary||1500.00|1597.60\n' +
    '07/01/2025|Rent|700.00||897.60\n';

  it('pairs the two neighbouring amount columns, the left one as money out when neither carries a minus', () => {
    const out = inferColumnTransforms(cols(5), split(UNSIGNED, '|'));
    const pair = { kind: 'debitCredit', debitColumn: 'Column 3', creditColumn: 'Column 4', decimals: 2 };
    expect(out[2]).toEqual(pair);
    expect(out[3]).toEqual(pair);
    // the balance is filled on every row beside the credit column: never a side of a pair
    expect(out[4]).toEqual({ kind: 'number', decimalSeparator: '.' });
  });

  it('takes the side written with a minus as money out, wherever it stands', () => {
    const rows = split('10.3.2025;Lohn;1.200,00;\n11.3.2025;Miete;;-650,00\n12.3.2025;Kino;;-9,50\n', ';');
    expect(inferColumnTransforms(cols(4), rows)[2]).toMatchObject({
      kind: 'debitCredit',
      debitColumn: 'Column 4',
      creditColumn: 'Column 3',
    });
  });

  it('does not pair columns that are both filled on one row, or columns the file names', () => {
    const both = split('2025-01-03,Fee,2.00,0.50\n2025-01-04,Pay,,10.00\n2025-01-05,Tea,3.00,\n', ',');
    expect(inferColumnTransforms(cols(4), both)[2]?.kind).not.toBe('debitCredit');
    const named = split('2025-01-03,Tea,3.00,\n2025-01-04,Pay,,10.00\n', ',');
    const t = inferColumnTransforms(['Date', 'Text', 'Gross', 'Tip'], named);
    expect(t[2]?.kind).not.toBe('debitCredit');
  });

  it('maps an upload read without a header row to one signed amount, bytes compared', async () => {
    const csv = UNSIGNED.replace(/\|/g, ',');
    const inspector = new CsvInspector({ sampleRows: 5 });
    inspector.push(Buffer.from(csv));
    const ins = inspector.end();
    expect(ins.headerRow).toBe(0);
    const amount = ins.columns[2].inferred;
    const mappings: MappingPair[] = [
      { templateColumn: 'Text', dataColumn: 'Column 2' },
      { templateColumn: 'Amount', dataColumn: '', transform: amount! },
    ];
    const { data } = await applyMappingToBuffer([Buffer.from(csv)], ['Text', 'Amount'], mappings, {
      input: { encoding: ins.encoding, delimiter: ins.delimiter, headerRow: ins.headerRow },
      lineEnding: '\n',
    });
    expect(data.toString('utf8')).toBe('Text,Amount\nBakery,-2.40\nRefund,\nSalary,1500.00\nRent,-700.00\n');
  });
});

describe('a direction column that repeats an amount column signs', () => {
  it('signs no other column (a tax beside a signed gross amount stays as it is)', () => {
    const rows = split(
      '2025-02-01;-10,00;1,60;Debit\n2025-02-02;25,00;4,00;Credit\n2025-02-03;-5,00;0,80;Debit\n',
      ';',
    );
    const out = inferColumnTransforms(['Date', 'Gross', 'Tax', 'Effect'], rows);
    expect(out[2]).toEqual({ kind: 'number', decimalSeparator: ',' });
  });

  it('still signs an unsigned amount when no column carries the signs', () => {
    const rows = split('2025-02-01;10,00;Debit\n2025-02-02;25,00;Credit\n2025-02-03;5,00;Debit\n', ';');
    const out = inferColumnTransforms(['Date', 'Amount', 'Effect'], rows);
    expect(out[1]).toMatchObject({ kind: 'amount', sign: { column: 'Effect', negative: ['Debit'] } });
  });
});

describe('lines of words in a date column', () => {
  it('leave the column dates when they are few among many dates', () => {
    const values = ['Pending items not shown', '31/01/2025', '30/01/2025', '28/01/2025', '27/01/2025'];
    const out = inferColumnTransforms(
      ['Date'],
      values.map((v) => [v]),
    );
    expect(out[0]).toEqual({ kind: 'date', input: 'DD/MM/YYYY', output: 'YYYY-MM-DD' });
  });

  it('make it text when they are a third of it', () => {
    const values = ['Opening', '31/01/2025', 'Closing', '30/01/2025', 'Carried', '28/01/2025'];
    expect(
      inferColumnTransforms(
        ['Date'],
        values.map((v) => [v]),
      )[0],
    ).toBeNull();
  });
});
