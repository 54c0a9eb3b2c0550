export const COLUMNS = [
  'Date',
  'Reference',
  'Customer',
  'Email',
  'SKU',
  'Quantity',
  'Unit Price',
  'Amount',
  'VAT',
  'Paid',
  'Country',
  'Note',
];
