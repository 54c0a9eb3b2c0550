import { describe, expect, it } from '@jest/globals';
import { SyncReview } from './review-model';

describe('rows exported by an earlier run in the review (issue 30)', () => {
  it('are marked on their first cell and filterable by rule; other whole-row notes stay above the grid', () => {
    const csv = 'Date,Payee,Value\r\n2026-10-30,Salary,2500.00\r\n2026-11-01,Bakery,-4.20\r\n';
    const review = new SyncReview(csv, [
      {
        row: 1,
        column: '',
        value: '',
        reason: 'Exported on 3 Oct 2026 by ana',
        rule: 'alreadyExported',
      },
      { row: 2, column: '', value: '', reason: 'Row 2 had 4 fields; padded.' },
    ]);
    expect(review.issuesOf(1)).toEqual([
      {
        row: 1,
        column: 'Date',
        value: '',
        rule: 'alreadyExported',
        message: 'Exported on 3 Oct 2026 by ana',
      },
    ]);
    expect(review.rows({ rule: 'alreadyExported' })).toEqual([1]);
    expect(review.issuesOf(2)).toEqual([]);
    expect(review.general).toHaveLength(1);
  });
});
