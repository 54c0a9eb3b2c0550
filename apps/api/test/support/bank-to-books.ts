// A saved mapping's body the mapping-history tests create: a bank statement (Booking date, Description,
// Amount) onto a Date, Payee, Amount template.
export const BANK_TO_BOOKS_MAPPING = {
  name: 'Bank to books',
  description: null,
  templateHeaders: ['Date', 'Payee', 'Amount'],
  dataHeaders: ['Booking date', 'Description', 'Amount'],
  mappings: [
    { templateColumn: 'Date', dataColumn: 'Booking date' },
    { templateColumn: 'Payee', dataColumn: 'Description' },
    { templateColumn: 'Amount', dataColumn: 'Amount' },
  ],
};
