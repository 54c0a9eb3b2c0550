// A saved mapping's body the team tests create and share: a German bank export (Tag, Betrag) onto a
// Date, Amount template.
export const BANK_EXPORT_MAPPING = {
  name: 'Bank export',
  templateHeaders: ['Date', 'Amount'],
  dataHeaders: ['Tag', 'Betrag'],
  mappings: [
    { templateColumn: 'Date', dataColumn: 'Tag' },
    { templateColumn: 'Amount', dataColumn: 'Betrag' },
  ],
};
