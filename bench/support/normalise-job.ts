import type { MappingPair } from '../../libs/csv-engine/src';

// The engine bench's `normalise` job over its generated file (bench/engine/generate): the template's
// columns and pairs — a date, an amount and four copies. bench:rules and bench:history start from it.

export const NORMALISE_HEADERS = ['Transaction Date', 'Customer', 'Amount', 'Email', 'SKU', 'Note'];

/** A fresh list each call (callers may add to it). */
export function normalisePairs(): MappingPair[] {
  return [
    {
      templateColumn: 'Transaction Date',
      dataColumn: 'Booking Date',
      transform: { kind: 'date', output: 'MM/DD/YYYY' },
    },
    { templateColumn: 'Customer', dataColumn: 'Customer Name' },
    { templateColumn: 'Amount', dataColumn: 'Betrag', transform: { kind: 'amount' } },
    { templateColumn: 'Email', dataColumn: 'E-mail' },
    { templateColumn: 'SKU', dataColumn: 'Article Number' },
    { templateColumn: 'Note', dataColumn: 'Notes' },
  ];
}
