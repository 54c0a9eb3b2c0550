import { normaliseHeader, suggestColumnMappings, suggestMappings } from './suggester';
import { BUILT_IN_TEMPLATES, findBuiltInTemplate, templateHeaders } from './templates';

const headersOf = (id: string): string[] => templateHeaders(findBuiltInTemplate(id) ?? BUILT_IN_TEMPLATES[0]);

/** Real-world exports and the mapping a person would make (template column → data column). */
const SCENARIOS: { name: string; template: string[]; data: string[]; expected: Record<string, string> }[] = [
  {
    name: 'spec example: legacy shop export → Shopify',
    template: headersOf('shopify-products'),
    data: ['ItemID', 'ProductName', 'CostPrice', 'StockQty'],
    expected: {
      Handle: 'ItemID',
      Title: 'ProductName',
      'Variant Price': 'CostPrice',
      'Variant Inventory Qty': 'StockQty',
    },
  },
  {
    name: 'WooCommerce product export → Shopify',
    template: headersOf('shopify-products'),
    data: [
      'ID',
      'Type',
      'SKU',
      'Name',
      'Published',
      'Description',
      'Regular price',
      'Sale price',
      'Stock',
      'Weight (g)',
      'Categories',
      'Tags',
      'Images',
      'Brand',
    ],
    expected: {
      Title: 'Name',
      'Body (HTML)': 'Description',
      Vendor: 'Brand',
      'Product Category': 'Categories',
      Type: 'Type',
      Tags: 'Tags',
      Published: 'Published',
      'Variant SKU': 'SKU',
      'Variant Grams': 'Weight (g)',
      'Variant Inventory Qty': 'Stock',
      'Variant Price': 'Sale price',
      'Variant Compare At Price': 'Regular price',
      'Image Src': 'Images',
    },
  },
  {
    name: 'German ERP article list → Shopify',
    template: headersOf('shopify-products'),
    data: [
      'Artikelnummer',
      'Bezeichnung',
      'Beschreibung',
      'Hersteller',
      'Kategorie',
      'Preis',
      'UVP',
      'Lagerbestand',
      'Gewicht',
      'Bild',
    ],
    expected: {
      'Variant SKU': 'Artikelnummer',
      Title: 'Bezeichnung',
      'Body (HTML)': 'Beschreibung',
      Vendor: 'Hersteller',
      'Product Category': 'Kategorie',
      'Variant Price': 'Preis',
      'Variant Compare At Price': 'UVP',
      'Variant Inventory Qty': 'Lagerbestand',
      'Variant Grams': 'Gewicht',
      'Image Src': 'Bild',
    },
  },
  {
    name: 'CRM contacts → Customers',
    template: headersOf('accounting-customers'),
    data: [
      'Customer Name',
      'E-mail Address',
      'Phone Number',
      'Street Address',
      'Town',
      'Province',
      'Postal Code',
      'Terms',
      'Credit Line',
      'Created At',
    ],
    expected: {
      Name: 'Customer Name',
      Email: 'E-mail Address',
      Phone: 'Phone Number',
      Address: 'Street Address',
      City: 'Town',
      State: 'Province',
      ZIP: 'Postal Code',
      'Payment Terms': 'Terms',
      'Credit Limit': 'Credit Line',
    },
  },
  {
    name: 'supplier sheet → Vendors',
    template: headersOf('accounting-vendors'),
    data: [
      'Supplier',
      'Contact Person',
      'Email',
      'VAT Number',
      'Telephone',
      'Fax No',
      'Payment Terms',
      'Track 1099',
      'Website',
    ],
    expected: {
      'Vendor Name': 'Supplier',
      'Contact Name': 'Contact Person',
      'Email Address': 'Email',
      'Tax ID': 'VAT Number',
      Phone: 'Telephone',
      Fax: 'Fax No',
      'Payment Terms': 'Payment Terms',
      '1099 Eligible': 'Track 1099',
    },
  },
  {
    name: 'German bank export → Bank transactions',
    template: headersOf('accounting-bank-transactions'),
    data: ['Buchungstag', 'Wertstellung', 'Verwendungszweck', 'Betrag', 'Währung', 'IBAN', 'Referenz'],
    expected: {
      Date: 'Buchungstag',
      Description: 'Verwendungszweck',
      Amount: 'Betrag',
      Account: 'IBAN',
      'Reference Number': 'Referenz',
    },
  },
  {
    name: 'UK bank export → Bank transactions',
    template: headersOf('accounting-bank-transactions'),
    data: [
      'Transaction Date',
      'Transaction Type',
      'Transaction Description',
      'Value',
      'Balance',
      'Account Name',
      'Notes',
    ],
    expected: {
      Date: 'Transaction Date',
      Description: 'Transaction Description',
      Amount: 'Value',
      Account: 'Account Name',
      Memo: 'Notes',
    },
  },
];

describe('normaliseHeader', () => {
  it('folds case, accents, punctuation and camelCase', () => {
    expect(normaliseHeader('E-Mail_Adresse')).toBe('e mail adresse');
    expect(normaliseHeader('ProductName')).toBe('product name');
    expect(normaliseHeader('  Straße & Nr. ')).toBe('strasse and nr');
    expect(normaliseHeader('SKUCode')).toBe('sku code');
  });
});

describe('suggestMappings', () => {
  it('never maps one data column twice, and gives confidences in 0–1', () => {
    for (const s of SCENARIOS) {
      const out = suggestMappings(s.template, s.data);
      const used = out.map((p) => p.dataColumn);
      expect(new Set(used).size).toBe(used.length);
      for (const p of out) {
        expect(p.confidence).toBeGreaterThan(0);
        expect(p.confidence).toBeLessThanOrEqual(1);
      }
    }
  });

  it('maps exact names with confidence 1 and synonyms lower', () => {
    const out = suggestMappings(['Email', 'Quantity'], ['email', 'Qty']);
    expect(out).toEqual([
      { templateColumn: 'Email', dataColumn: 'email', confidence: 1, reason: 'exact' },
      { templateColumn: 'Quantity', dataColumn: 'Qty', confidence: 0.9, reason: 'synonym' },
    ]);
  });

  it('uses sample values to confirm a guess', () => {
    const without = suggestMappings(['Email'], ['Kontakt'], { minConfidence: 0 });
    const withSamples = suggestMappings(['Email'], ['Kontakt'], {
      minConfidence: 0,
      samples: { Kontakt: ['a@b.com', 'c@d.de'] },
    });
    expect(withSamples[0].confidence).toBeGreaterThan(without[0]?.confidence ?? 0);
    expect(withSamples[0].confidence).toBeGreaterThanOrEqual(0.6);
  });

  it('is precise on 40+ realistic header pairs', () => {
    let expectedPairs = 0;
    let suggested = 0;
    let correct = 0;
    const wrong: string[] = [];
    for (const s of SCENARIOS) {
      const out = suggestMappings(s.template, s.data);
      expectedPairs += Object.keys(s.expected).length;
      for (const p of out) {
        suggested++;
        if (s.expected[p.templateColumn] === p.dataColumn) correct++;
        else wrong.push(`${s.name}: ${p.templateColumn} ← ${p.dataColumn} (${p.confidence})`);
      }
    }
    const precision = correct / suggested;
    const recall = correct / expectedPairs;
    // Printed so the figure can be quoted; asserted so it cannot silently drop.
    console.log(
      `suggester: ${expectedPairs} expected pairs, ${suggested} suggested, ${correct} correct — precision ${(precision * 100).toFixed(1)} %, recall ${(recall * 100).toFixed(1)} %\n${wrong.join('\n')}`,
    );
    expect(expectedPairs).toBeGreaterThanOrEqual(40);
    expect(precision).toBeGreaterThanOrEqual(0.9);
    expect(recall).toBeGreaterThanOrEqual(0.85);
  });
});

describe('suggestMappings with inferred transforms (the upload answer’s columns)', () => {
  it('carries each data column’s inferred transform as the pair’s transform', () => {
    const out = suggestMappings(['Date', 'Description', 'Amount'], ['Date', 'Description', 'Amount'], {
      inferred: {
        Date: { kind: 'date', input: 'DD/MM/YYYY', output: 'YYYY-MM-DD' },
        Description: null,
        Amount: { kind: 'amount', decimals: 2 },
      },
    });
    expect(out.map((p) => [p.templateColumn, p.transform ?? null])).toEqual([
      ['Date', { kind: 'date', input: 'DD/MM/YYYY', output: 'YYYY-MM-DD' }],
      ['Description', null],
      ['Amount', { kind: 'amount', decimals: 2 }],
    ]);
  });

  it('feeds a debit/credit pair into the template’s amount column', () => {
    const pair = {
      kind: 'debitCredit' as const,
      debitColumn: 'Paid out',
      creditColumn: 'Paid in',
      decimals: 2,
    };
    const out = suggestMappings(['Date', 'Amount'], ['Date', 'Paid out', 'Paid in'], {
      inferred: { 'Paid out': pair, 'Paid in': pair },
    });
    expect(out.find((p) => p.templateColumn === 'Amount')).toMatchObject({ dataColumn: '', transform: pair });
  });
});

describe('suggestColumnMappings', () => {
  it('keeps an inferred debit/credit pair on the bank template’s Amount (issue 27 repro 2)', () => {
    const pair = {
      kind: 'debitCredit' as const,
      debitColumn: 'Debit Amount',
      creditColumn: 'Credit Amount',
      decimals: 2,
    };
    const out = suggestColumnMappings({
      templateColumns: headersOf('accounting-bank-transactions'),
      builtInTemplateId: 'accounting-bank-transactions',
      dataColumns: ['Date', 'Details', 'Debit Amount', 'Credit Amount'],
      samples: {},
      inferred: { 'Debit Amount': pair, 'Credit Amount': pair },
    });
    expect(out.mappings.find((m) => m.templateColumn === 'Amount')).toMatchObject({
      dataColumn: '',
      transform: pair,
    });
  });

  it('leaves optional built-in columns empty and lists the required ones it could not fill (repro 1)', () => {
    const out = suggestColumnMappings({
      templateColumns: headersOf('accounting-customers'),
      builtInTemplateId: 'accounting-customers',
      dataColumns: ['Name', 'Email', 'Phone'],
      samples: { Name: ['Ada Lovelace'], Email: ['ada@example.com'], Phone: ['+44 20 7946 0000'] },
      inferred: {},
    });
    expect(out.unmatched).toEqual([]);
    expect(out.mappings.filter((m) => m.empty).map((m) => m.templateColumn)).toEqual([
      'Address',
      'City',
      'State',
      'ZIP',
      'Payment Terms',
      'Credit Limit',
    ]);
  });
});
