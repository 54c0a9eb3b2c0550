import { describe, expect, it } from '@jest/globals';
import { describeChanges, describeMissing, hasChanges } from './source-changes';

describe('source changes in words', () => {
  it('says a rename and an added column the way the mapper shows them', () => {
    const changes = { added: ['Category'], removed: [], renamed: [{ from: 'Amount', to: 'Amount (EUR)' }] };
    expect(describeChanges(changes)).toBe("'Amount' is now 'Amount (EUR)'; a new column 'Category'");
    expect(hasChanges(changes)).toBe(true);
  });

  it('lists several added and removed columns', () => {
    expect(describeChanges({ added: ['A', 'B', 'C'], removed: ['X'], renamed: [] })).toBe(
      "new columns 'A', 'B' and 'C'; 'X' is gone",
    );
    expect(describeChanges({ added: [], removed: ['X', 'Y'], renamed: [] })).toBe("'X' and 'Y' are gone");
  });

  it('is empty when nothing changed', () => {
    const none = { added: [], removed: [], renamed: [] };
    expect(describeChanges(none)).toBe('');
    expect(hasChanges(none)).toBe(false);
    expect(describeMissing([], [])).toBe('');
  });

  it('names the template columns left to map, also for a column a transform read', () => {
    const pairs = [
      { templateColumn: 'Value', dataColumn: 'Amount' },
      {
        templateColumn: 'Net',
        dataColumn: '',
        transform: { kind: 'debitCredit' as const, debitColumn: 'Out', creditColumn: 'In' },
      },
      { templateColumn: 'Payee', dataColumn: 'Description' },
    ];
    expect(describeMissing(['Amount', 'Out'], pairs)).toBe(
      "Map 'Value' and 'Net' yourself: 'Amount' and 'Out' are not in this file.",
    );
  });
});
