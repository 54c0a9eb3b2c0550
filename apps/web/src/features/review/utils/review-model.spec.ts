import { describe, expect, it } from '@jest/globals';
import { checkColumnValue, csvCellText as writeCell, dateReader, graphemeLength } from '@csv-mapper/rules';
import type { ColumnRules } from '@csv-mapper/contracts';
import { parseCsv, SyncReview } from './review-model';

/** The first rule a value breaks (the grid's hint), or null. */
const checkCell = (value: string, rules: ColumnRules) => checkColumnValue(value, rules)[0] ?? null;
const matchesDate = (value: string, format = 'YYYY-MM-DD') => dateReader(format)(value);

const CSV = 'Handle,Title,Variant Price\r\nblue-mug,Blue Mug,12.50\r\n,,9.99\r\nred-cup,"Red, Cup",1O.00\r\n';
const WARNINGS = [
  { row: 2, column: 'Title', value: '', rule: 'required', message: 'Required value is empty' },
  { row: 3, column: 'Variant Price', value: '1O.00', reason: 'Could not read "1O.00" as an amount' },
  { row: 0, column: 'Variant Price', value: '', reason: 'Decimal separator is ambiguous' },
];
const RULES = {
  Title: { required: true, maxLength: 10 },
  'Variant Price': { type: 'amount' as const },
  Handle: { unique: true },
};

describe('review model (sync run)', () => {
  it('reads the output and groups problems by row; whole-column warnings stay outside the grid', () => {
    const r = new SyncReview(CSV, WARNINGS, RULES);
    expect(r.columns).toEqual(['Handle', 'Title', 'Variant Price']);
    expect(r.rowCount).toBe(3);
    expect(r.rows()).toEqual([2, 3]);
    expect(r.rows({ showAll: true })).toEqual([1, 2, 3]);
    expect(r.rows({ column: 'Title' })).toEqual([2]);
    expect(r.rows({ rule: 'other' })).toEqual([3]);
    expect(r.ruleNames()).toEqual(['other', 'required']);
    expect(r.general).toHaveLength(1);
    expect(r.value(3, 1)).toBe('Red, Cup');
  });

  it('an edit replaces the cell problems with what the rules say about the new value', () => {
    const r = new SyncReview(CSV, WARNINGS, RULES);
    r.edit(3, 2, '10.0x');
    expect(r.issuesOf(3)).toEqual([expect.objectContaining({ column: 'Variant Price', rule: 'type' })]);
    r.edit(3, 2, '10.00');
    expect(r.issuesOf(3)).toEqual([]);
    expect(r.rows()).toEqual([2]);
    r.edit(2, 1, 'Green Plate');
    expect(r.issuesOf(2)).toEqual([expect.objectContaining({ rule: 'maxLength' })]);
    r.edit(2, 1, 'Green Mug');
    expect(r.rows()).toEqual([]);
    expect(r.counts()).toEqual({ problemRows: 0, problems: 0, editedCells: 2, deletedRows: 0 });
  });

  it('writes the corrected file: unchanged records keep their bytes, edited ones are quoted as the engine does', () => {
    const r = new SyncReview(CSV, WARNINGS, RULES);
    r.edit(2, 1, 'Plate, "big"');
    r.edit(2, 0, '=cmd');
    r.edit(3, 2, '10.00');
    expect(r.toCsv()).toBe(
      'Handle,Title,Variant Price\r\nblue-mug,Blue Mug,12.50\r\n\'=cmd,"Plate, ""big""",9.99\r\nred-cup,"Red, Cup",10.00\r\n',
    );
    expect(r.patch()).toEqual({
      edits: [
        { row: 2, column: 'Title', value: 'Plate, "big"' },
        { row: 2, column: 'Handle', value: '=cmd' },
        { row: 3, column: 'Variant Price', value: '10.00' },
      ],
      deleteRows: [],
    });
  });

  it('setting a cell back to what was read is no edit', () => {
    const r = new SyncReview(CSV, WARNINGS, RULES);
    r.edit(1, 1, 'Other');
    r.edit(1, 1, 'Blue Mug');
    expect(r.isEdited(1, 1)).toBe(false);
    expect(r.toCsv()).toBe(CSV);
  });

  it('apply to all changes every cell with that value in that column, and deleted rows leave the file', () => {
    const csv = 'A,B\nx,1\ny,1\nx,2\n';
    const r = new SyncReview(csv, [], {});
    expect(r.countValue(0, 'x')).toBe(2);
    expect(r.applyToAll(0, 'x', 'z')).toBe(2);
    expect(r.value(1, 0)).toBe('z');
    expect(r.value(2, 0)).toBe('y');
    r.deleteRows([2]);
    expect(r.rows({ showAll: true })).toEqual([1, 3]);
    expect(r.toCsv()).toBe('A,B\nz,1\nz,2\n');
    expect(r.counts().deletedRows).toBe(1);
    expect(r.patch().deleteRows).toEqual([2]);
  });

  it('the unique rule looks at the other rows', () => {
    const r = new SyncReview(CSV, [], RULES);
    expect(r.check(2, 0, 'blue-mug')).toEqual({
      rule: 'unique',
      message: 'The same value is in row 1; each row needs its own',
    });
    expect(r.check(1, 0, 'blue-mug')).toBeNull();
  });
});

describe('CSV reading and writing', () => {
  it('reads quoted cells with doubled quotes and embedded line breaks', () => {
    const p = parseCsv('a;b\n"x;""y""\nz";w\n', ';');
    expect(p.records.map((r) => r.cells)).toEqual([['x;"y"\nz', 'w']]);
    expect(p.lineEnding).toBe('\n');
  });

  it('guards formulas but leaves negative numbers and phone numbers alone', () => {
    expect(writeCell('=1+1')).toBe("'=1+1");
    expect(writeCell('-12.50')).toBe('-12.50');
    expect(writeCell('+44 20 7946 0000')).toBe('+44 20 7946 0000');
    expect(writeCell('-x')).toBe("'-x");
    expect(writeCell('=1', ',', false)).toBe('=1');
  });
});

describe('rules checked as the user types', () => {
  it('required, type, length, allowed values', () => {
    expect(checkCell('', { required: true })?.rule).toBe('required');
    expect(checkCell('', { type: 'number' })).toBeNull();
    expect(checkCell('12a', { type: 'number' })?.rule).toBe('type');
    expect(checkCell('1e3', { type: 'number' })).toBeNull();
    expect(checkCell('a@b.co', { type: 'email' })).toBeNull();
    expect(checkCell('a@b', { type: 'email' })?.rule).toBe('type');
    expect(checkCell('https://x.test/a', { type: 'url' })).toBeNull();
    expect(checkCell('javascript:alert(1)', { type: 'url' })?.rule).toBe('type');
    expect(checkCell('Maybe', { type: 'boolean' })?.rule).toBe('type');
    expect(checkCell('abcd', { maxLength: 3 })?.message).toBe('4 characters; at most 3 are allowed');
    expect(checkCell('GB', { allowed: ['GB', 'US'] })).toBeNull();
    expect(checkCell('gb', { allowed: ['GB', 'US'] })?.rule).toBe('allowed');
  });

  it('counts user-perceived characters: an emoji with a skin tone is one', () => {
    expect(graphemeLength('👍🏽ab')).toBe(3);
    expect(checkCell('👍🏽👍🏽👍🏽', { maxLength: 3 })).toBeNull();
  });

  it('dates in the column format, with real calendar days', () => {
    expect(matchesDate('02/29/2024', 'MM/DD/YYYY')).toBe(true);
    expect(matchesDate('02/29/2023', 'MM/DD/YYYY')).toBe(false);
    expect(matchesDate('2024-13-01')).toBe(false);
    expect(matchesDate('1.2.2024', 'D.M.YYYY')).toBe(true);
    expect(checkCell('2024/01/01', { type: 'date', format: 'YYYY-MM-DD' })?.message).toBe(
      '"2024/01/01" is not a date in the form YYYY-MM-DD',
    );
  });
});
