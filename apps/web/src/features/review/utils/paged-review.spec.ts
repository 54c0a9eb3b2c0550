import { describe, expect, it } from '@jest/globals';
import { PagedReview } from './paged-review';

describe('paged review (background run)', () => {
  it('groups paged warnings into rows, also across a page boundary', () => {
    const r = new PagedReview(['Name', 'Price'], { Price: { type: 'amount' } });
    r.addPage(
      [
        { row: 4, column: 'Name', value: '', rule: 'required', message: 'A value is required' },
        { row: 9, column: 'Name', value: 'x'.repeat(5), rule: 'maxLength', message: 'Too long' },
      ],
      'c1',
    );
    expect(r.done).toBe(false);
    r.addPage([{ row: 9, column: 'Price', value: '1O', reason: 'Could not read' }], null);
    expect(r.done).toBe(true);
    expect(r.count()).toBe(2);
    const row = r.gridRow(1);
    expect(row?.row).toBe(9);
    expect(row?.cells).toEqual(['xxxxx', '1O']);
    expect(row?.issues.map((i) => i.rule)).toEqual(['maxLength', 'other']);
    // Cells the issues did not name are unknown, not empty.
    expect(r.gridRow(0)?.cells).toEqual(['', undefined]);
  });

  it('edits and deletions become the patch; an edit is re-checked', () => {
    const r = new PagedReview(['Name', 'Price'], { Price: { type: 'amount' } });
    r.addPage(
      [
        { row: 2, column: 'Price', value: '1O', reason: 'Could not read' },
        { row: 3, column: 'Price', value: '1O', reason: 'Could not read' },
        { row: 5, column: 'Name', value: '', rule: 'required', message: 'A value is required' },
      ],
      null,
    );
    expect(r.edit(0, 1, '10x')).toBe('1O');
    expect(r.gridRow(0)?.issues).toEqual([expect.objectContaining({ rule: 'type' })]);
    expect(r.countValue(1, '1O')).toBe(1);
    expect(r.applyToAll(1, '1O', '10')).toBe(1);
    r.edit(0, 1, '10');
    expect(r.problems()).toBe(1);
    r.deleteRows([5]);
    expect(r.count()).toBe(2);
    expect(r.patch()).toEqual({
      edits: [
        { row: 2, column: 'Price', value: '10' },
        { row: 3, column: 'Price', value: '10' },
      ],
      deleteRows: [5],
    });
  });
});
