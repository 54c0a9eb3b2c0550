import {
  suggestColumnMappings,
  type ColumnSuggestion,
  type SuggestInput,
  type SuggestedTransform,
} from './suggester';
import { BUILT_IN_TEMPLATES, findBuiltInTemplate, templateHeaders } from './templates';

const headersOf = (id: string): string[] => templateHeaders(findBuiltInTemplate(id) ?? BUILT_IN_TEMPLATES[0]);

/** Real-world exports and the mapping a person would make (template column → data column). */
const SCENARIOS: { name: string; template: string[]; data: string[]; expected: Record<string, string> }[] = [
  {
    name: 'spec example: legacy shop export → Shopify',
    template: headersOf('shopify-products'),
    data: ['ItemID', 'ProductName', 'CostPrice', 'StockQty'],
    // Handle is made from the Title (Shopify's own rule) rather than from an id
    expected: {
      Handle: 'ProductName',
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
      Handle: 'Name',
      Title: 'Name',
      'Body (HTML)': 'Description',
      Vendor: 'Brand',
      Type: 'Type',
      Tags: 'Tags',
      Published: 'Published',
      'Variant SKU': 'SKU',
      'Variant Grams': 'Weight (g)',
      'Variant Inventory Qty': 'Stock',
      'Variant Price': 'Regular price',
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
      Handle: 'Bezeichnung',
      Title: 'Bezeichnung',
      'Body (HTML)': 'Beschreibung',
      Vendor: 'Hersteller',
      Type: 'Kategorie',
      'Variant Price': 'Preis',
      'Variant Compare At Price': 'UVP',
      'Variant Inventory Qty': 'Lagerbestand',
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

const steps = (t: ColumnSuggestion['transform']): SuggestedTransform[] =>
  t === undefined ? [] : Array.isArray(t) ? t : [t];

/** The suggester for one of the built-in templates: its headers and its id. */
function suggestFor(templateId: string, input: Omit<Parameters<typeof suggest>[0], 'templateColumns'>) {
  return suggest({ templateColumns: headersOf(templateId), builtInTemplateId: templateId, ...input });
}

function suggest(partial: Partial<SuggestInput> & Pick<SuggestInput, 'templateColumns' | 'dataColumns'>) {
  return suggestColumnMappings({ samples: {}, inferred: {}, ...partial });
}
const pairOf = (out: { mappings: ColumnSuggestion[] }, column: string) =>
  out.mappings.find((m) => m.templateColumn === column);
/** The data column a template column got ('' for none or a combination). */
const sourceOf = (out: { mappings: ColumnSuggestion[] }, column: string) =>
  pairOf(out, column)?.dataColumn ?? '';
/** n sample values from a function of the row. */
const rows = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));

describe('suggestColumnMappings on realistic exports', () => {
  it('is precise on 40+ realistic header pairs (names only, no values)', () => {
    let expectedPairs = 0;
    let suggested = 0;
    let correct = 0;
    const wrong: string[] = [];
    for (const s of SCENARIOS) {
      const builtIn = BUILT_IN_TEMPLATES.find((t) => templateHeaders(t).join() === s.template.join());
      const out = suggest({
        templateColumns: s.template,
        dataColumns: s.data,
        ...(builtIn ? { builtInTemplateId: builtIn.id } : {}),
      });
      expectedPairs += Object.keys(s.expected).length;
      for (const p of out.mappings) {
        if (p.empty) continue;
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
    expect(precision).toBeGreaterThanOrEqual(0.95);
    expect(recall).toBeGreaterThanOrEqual(0.95);
  });

  it('answers what POST /api/process accepts: each data column once, confidences in 0–1, a reason each', () => {
    for (const s of SCENARIOS) {
      const out = suggest({ templateColumns: s.template, dataColumns: s.data });
      const used = out.mappings.filter(
        (m) => m.dataColumn !== '' && !steps(m.transform).some((t) => t.kind === 'slug'),
      );
      expect(new Set(used.map((m) => m.dataColumn)).size).toBe(used.length);
      for (const m of out.mappings) {
        expect(m.confidence).toBeGreaterThan(0);
        expect(m.confidence).toBeLessThanOrEqual(1);
        expect(m.reason).toMatch(/\w.*\.$/);
        // '' only when the transform reads its own columns or the column is left empty
        if (m.dataColumn === '')
          expect(
            m.empty === true ||
              ['combine', 'coalesce', 'debitCredit', 'constant'].includes(steps(m.transform)[0]?.kind),
          ).toBe(true);
      }
      for (const t of out.unmatched) expect(pairOf(out, t)).toBeUndefined();
      expect(out.mappings.length + out.unmatched.length).toBe(s.template.length);
    }
  });
});

describe('issue 27, repro 1–2: optional columns and the built-in bank template', () => {
  it('leaves optional built-in columns empty and lists nothing unmatched when the required ones are there', () => {
    const out = suggestFor('accounting-customers', {
      dataColumns: ['Name', 'Email', 'Phone'],
      samples: { Name: ['Ada Lovelace'], Email: ['ada@example.com'], Phone: ['+44 20 7946 0000'] },
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
    expect(pairOf(out, 'Address')).toEqual(expect.objectContaining({ dataColumn: '', empty: true }));
  });

  it('lists required built-in columns and uploaded template columns that nothing matched', () => {
    const builtIn = suggestFor('accounting-customers', {
      dataColumns: ['Email'],
    });
    expect(builtIn.unmatched).toEqual(['Name', 'Phone']);
    const uploaded = suggest({ templateColumns: ['Email', 'Loyalty tier'], dataColumns: ['E-mail'] });
    expect(uploaded.unmatched).toEqual(['Loyalty tier']);
  });

  it('keeps an inferred debit/credit pair on Amount, with the template’s decimals', () => {
    const pair = { kind: 'debitCredit' as const, debitColumn: 'Debit Amount', creditColumn: 'Credit Amount' };
    const out = suggestFor('accounting-bank-transactions', {
      dataColumns: ['Date', 'Details', 'Debit Amount', 'Credit Amount'],
      inferred: { 'Debit Amount': pair, 'Credit Amount': pair },
    });
    expect(pairOf(out, 'Amount')).toEqual(
      expect.objectContaining({ dataColumn: '', transform: { ...pair, decimals: 2 } }),
    );
  });

  it('merges the template’s output format with the input the data is written in', () => {
    const out = suggestFor('accounting-bank-transactions', {
      dataColumns: ['Buchungstag', 'Verwendungszweck', 'Betrag'],
      samples: {
        Buchungstag: ['31.01.2024', '01.02.2024'],
        Verwendungszweck: ['Miete Januar', 'Strom'],
        Betrag: ['-1.200,00', '45,10'],
      },
      inferred: {
        Buchungstag: { kind: 'date', input: 'DD.MM.YYYY', output: 'YYYY-MM-DD' },
        Betrag: { kind: 'amount', decimals: 2, decimalSeparator: ',' },
      },
    });
    expect(pairOf(out, 'Date')?.transform).toEqual({
      kind: 'date',
      input: 'DD.MM.YYYY',
      output: 'MM/DD/YYYY',
    });
    expect(pairOf(out, 'Amount')?.transform).toEqual({ kind: 'amount', decimals: 2, decimalSeparator: ',' });
    expect(pairOf(out, 'Amount')?.reason).toBe(
      "'Betrag' means Amount (German); its values are amounts with a decimal comma.",
    );
  });

  it('reads an amount-looking count as a number for a number column (no amount-only fields)', () => {
    const out = suggestFor('shopify-products', {
      dataColumns: ['Title', 'Stock'],
      inferred: { Stock: { kind: 'amount', decimals: 2, negative: 'parentheses', decimalSeparator: ',' } },
    });
    expect(pairOf(out, 'Variant Inventory Qty')?.transform).toEqual({
      kind: 'number',
      decimals: 0,
      decimalSeparator: ',',
    });
  });

  it('never replaces an amount whose sign comes from a direction column', () => {
    const signed = {
      kind: 'amount' as const,
      decimalSeparator: ',' as const,
      sign: { column: 'Af Bij', negative: ['Af'] },
    };
    const out = suggestFor('accounting-bank-transactions', {
      dataColumns: ['Datum', 'Naam / Omschrijving', 'Af Bij', 'Bedrag (EUR)', 'Mededelingen'],
      samples: { 'Af Bij': ['Af', 'Bij', 'Af'], 'Bedrag (EUR)': ['12,50', '100,00', '3,10'] },
      inferred: { 'Bedrag (EUR)': signed },
    });
    expect(pairOf(out, 'Amount')).toEqual(
      expect.objectContaining({ dataColumn: 'Bedrag (EUR)', transform: { ...signed, decimals: 2 } }),
    );
    expect(pairOf(out, 'Amount')?.reason).toContain("its sign comes from 'Af Bij'");
    expect(out.mappings.some((m) => m.dataColumn === 'Af Bij')).toBe(false);
    expect(sourceOf(out, 'Description')).toBe('Naam / Omschrijving');
  });
});

describe('issue 27, repro 3: groups split by meaning', () => {
  it('does not take a company, a job title or a customer id for a person’s name', () => {
    const out = suggestFor('accounting-customers', {
      dataColumns: ['Customer ID', 'Company', 'Job Title', 'Email', 'Phone'],
    });
    expect(pairOf(out, 'Name')).toBeUndefined();
    expect(out.unmatched).toEqual(['Name']);
  });

  it('gives HubSpot’s Country/Region the country, not the state', () => {
    const out = suggest({
      templateColumns: [
        'First Name',
        'Last Name',
        'Email',
        'Phone Number',
        'Company Name',
        'City',
        'Country/Region',
      ],
      dataColumns: ['Given Name', 'Surname', 'Region', 'Country', 'Organization'],
      samples: { Region: ['California', 'Bayern'], Country: ['United States', 'Germany'] },
    });
    expect(sourceOf(out, 'Country/Region')).toBe('Country');
    expect(sourceOf(out, 'Company Name')).toBe('Organization');
    expect(sourceOf(out, 'First Name')).toBe('Given Name');
  });

  it('does not sell at cost: Variant Price ← the price, not the cost', () => {
    const out = suggestFor('shopify-products', {
      dataColumns: ['Title', 'Cost per item', 'Cost', 'Unit price'],
    });
    expect(sourceOf(out, 'Variant Price')).toBe('Unit price');
    expect(out.mappings.some((m) => m.dataColumn.startsWith('Cost'))).toBe(false);
  });

  it('never makes a value date (or any column of dates) the Amount', () => {
    const out = suggest({
      templateColumns: ['Date', 'Description', 'Amount'],
      dataColumns: ['Booking date', 'Value date', 'Text', 'Value'],
      samples: { 'Value date': ['2024-01-02'], Value: ['-12.50'], Text: ['Rent', 'Coffee'] },
    });
    expect(sourceOf(out, 'Amount')).toBe('Value');
    expect(sourceOf(out, 'Date')).toBe('Booking date');
    const dates = suggest({
      templateColumns: ['Date', 'Amount'],
      dataColumns: ['Posted', 'Value'],
      samples: { Value: ['2024-01-02', '2024-01-03', '2024-01-05'], Posted: ['x', 'y'] },
    });
    expect(sourceOf(dates, 'Amount')).toBe('');
  });
});

describe('issue 27, repro 4: partial matches on generic words', () => {
  const shopify = (dataColumns: string[], samples: Record<string, string[]> = {}) =>
    suggestFor('shopify-products', {
      dataColumns,
      samples,
    });

  it('Status is not "Tax status", Published is not "Available online only", Option1 Name is not tax_class_name', () => {
    const out = shopify(['Title', 'Tax status', 'Available online only', 'tax_class_name'], {
      'Tax status': rows(5, () => 'taxable'),
      'Available online only': rows(5, (i) => (i % 2 ? 'yes' : 'no')),
    });
    expect(pairOf(out, 'Status')?.empty).toBe(true);
    expect(pairOf(out, 'Published')?.empty).toBe(true);
    expect(pairOf(out, 'Option1 Name')?.empty).toBe(true);
  });

  it('the body beats the SEO description, and an email column is not the Address', () => {
    const out = shopify(['Title', 'SEO Description', 'Body (HTML)']);
    expect(sourceOf(out, 'Body (HTML)')).toBe('Body (HTML)');
    const woo = suggest({
      templateColumns: ['SKU', 'Name', 'Regular price', 'Categories', 'Description', 'Stock'],
      dataColumns: ['Handle', 'Title', 'SEO Description', 'Body (HTML)', 'Variant Price'],
    });
    expect(sourceOf(woo, 'Description')).toBe('Body (HTML)');
    const contacts = suggestFor('accounting-customers', {
      dataColumns: ['Name', 'E-mail Address', 'E-mail 2 Address'],
    });
    expect(pairOf(contacts, 'Address')?.empty).toBe(true);
  });

  it('digits that are not phone-shaped are not a Phone', () => {
    const out = suggest({
      templateColumns: ['Name', 'Phone'],
      dataColumns: ['Name', 'Password *', 'Customer number'],
      samples: {
        'Password *': ['12345678', '9988776655443322', '4711'],
        'Customer number': ['100234', '100235', '100236'],
      },
    });
    expect(sourceOf(out, 'Phone')).toBe('');
    // phone-shaped values under a name that says nothing are taken
    const shaped = suggest({
      templateColumns: ['Name', 'Phone'],
      dataColumns: ['Name', 'Kontaktnr'],
      samples: { Kontaktnr: ['+49 30 1234567', '+49 89 7654321', '030 555 0101'] },
    });
    expect(sourceOf(shaped, 'Phone')).toBe('Kontaktnr');
  });
});

describe('issue 27, repro 5: names in eight languages', () => {
  const bank = (description: string, amount = 'Amount') =>
    suggestFor('accounting-bank-transactions', {
      dataColumns: ['Date', description, amount],
      samples: {
        Date: ['2024-01-02', '2024-01-03'],
        [description]: ['Coffee Shop', 'Rent January', 'Salary'],
        [amount]: ['-3.50', '-900.00', '2500.00'],
      },
      inferred: {
        Date: { kind: 'date', input: 'YYYY-MM-DD', output: 'YYYY-MM-DD' },
        [amount]: { kind: 'amount' },
      },
    });

  it.each([
    'Merchant Name',
    'Name',
    'desc',
    'Notification text',
    'Partner Name',
    'Naam / Omschrijving',
    'Omschrijving',
    'Verwendungszweck',
    'Buchungstext',
    'Libellé',
    'Concepto',
  ])('Description ← %s', (header) => {
    const out = bank(header);
    expect(sourceOf(out, 'Description')).toBe(header);
    expect(out.unmatched).toEqual([]);
  });

  it.each(['Bedrag (EUR)', 'Betrag', 'Montant', 'Importe', 'Net'])('Amount ← %s', (header) => {
    expect(sourceOf(bank('Details', header), 'Amount')).toBe(header);
  });

  it('Reference #, Internal Reference, Organization; Billing Code is the postcode', () => {
    const out = suggestFor('accounting-bank-transactions', {
      dataColumns: ['Date', 'Details', 'Amount', 'Reference #'],
    });
    expect(sourceOf(out, 'Reference Number')).toBe('Reference #');
    const bankRef = suggestFor('accounting-bank-transactions', {
      dataColumns: ['Date', 'Details', 'Amount', 'Internal Reference'],
    });
    expect(sourceOf(bankRef, 'Reference Number')).toBe('Internal Reference');
    const products = suggest({
      templateColumns: ['SKU', 'Name', 'Regular price', 'Categories', 'Description', 'Stock'],
      dataColumns: ['Internal Reference', 'Name', 'Sales Price'],
    });
    expect(sourceOf(products, 'SKU')).toBe('Internal Reference');
    const contacts = suggestFor('accounting-customers', {
      dataColumns: ['Full name', 'Organization', 'Billing Code', 'Email', 'Phone'],
    });
    // Zoho CRM's Billing Street, Billing City, Billing Code (postal code)
    expect(sourceOf(contacts, 'ZIP')).toBe('Billing Code');
    expect(pairOf(contacts, 'Payment Terms')?.empty).toBe(true);
    const hubspot = suggest({
      templateColumns: [
        'First Name',
        'Last Name',
        'Email',
        'Phone Number',
        'Company Name',
        'City',
        'Country/Region',
      ],
      dataColumns: ['Organization', 'Billing Code'],
    });
    expect(sourceOf(hubspot, 'Company Name')).toBe('Organization');
  });

  it('Italian product headers', () => {
    const out = suggest({
      templateColumns: ['SKU', 'Name', 'Regular price', 'Categories', 'Description', 'Stock'],
      dataColumns: ['CODICE', 'TITOLO', 'DESCRIZIONE', 'PREZZO', 'QUANTITÀ', 'CATEGORIA'],
    });
    expect(out.mappings.map((m) => [m.templateColumn, m.dataColumn])).toEqual([
      ['SKU', 'CODICE'],
      ['Name', 'TITOLO'],
      ['Regular price', 'PREZZO'],
      ['Categories', 'CATEGORIA'],
      ['Description', 'DESCRIZIONE'],
      ['Stock', 'QUANTITÀ'],
    ]);
    expect(pairOf(out, 'Regular price')?.reason).toBe("'PREZZO' means Price (Italian).");
  });
});

describe('issue 27, repro 6: an inferred pair beats a partial name', () => {
  it('Amount ← the debit/credit pair, not "Credit Amount" alone', () => {
    const pair = {
      kind: 'debitCredit' as const,
      debitColumn: 'Debit Amount',
      creditColumn: 'Credit Amount',
      decimals: 2,
    };
    const out = suggest({
      templateColumns: ['Date', 'Description', 'Amount'],
      dataColumns: ['Transaction Date', 'Description', 'Credit Amount', 'Debit Amount', 'Balance'],
      samples: { 'Credit Amount': ['', '10.00'], 'Debit Amount': ['5.00', ''], Balance: ['95.00', '105.00'] },
      inferred: {
        'Credit Amount': pair,
        'Debit Amount': pair,
        Balance: { kind: 'number', decimalSeparator: '.' },
      },
    });
    expect(pairOf(out, 'Amount')).toEqual(expect.objectContaining({ dataColumn: '', transform: pair }));
    expect(pairOf(out, 'Amount')?.reason).toBe(
      "'Debit Amount' and 'Credit Amount' together make one signed amount (credit − debit).",
    );
  });
});

describe('pairs and dates the upload did not infer', () => {
  it('pairs a debit and a credit column of amounts by their names', () => {
    const out = suggest({
      templateColumns: ['Date', 'Description', 'Amount'],
      dataColumns: [
        'Transaction Date',
        'Transaction Description',
        'Debit Amount',
        'Credit Amount',
        'Balance',
      ],
      samples: {
        'Debit Amount': ['8.99', '4.79'],
        'Credit Amount': ['', ''],
        Balance: ['2040.59', '2049.58'],
      },
    });
    expect(pairOf(out, 'Amount')?.transform).toEqual({
      kind: 'debitCredit',
      debitColumn: 'Debit Amount',
      creditColumn: 'Credit Amount',
      decimals: 2,
    });
  });

  it('takes a creation timestamp for the Date when nothing else is a date', () => {
    const out = suggest({
      templateColumns: ['Date', 'Description', 'Amount'],
      dataColumns: ['id', 'created', 'amount', 'description'],
      samples: { created: ['2018-02-25 12:34:56 +0000'], amount: ['-10'] },
    });
    expect(sourceOf(out, 'Date')).toBe('created');
  });
});

describe('meanings that look alike', () => {
  it('shop categories go to Shopify’s Type, not its taxonomy column; technical kinds are no product type', () => {
    const out = suggestFor('shopify-products', {
      dataColumns: ['Name', 'Type', 'Categories', 'Weight (lbs)', 'Weight (g)'],
      samples: {
        Type: rows(12, (i) => (i % 2 ? 'simple' : 'variable')),
        Categories: rows(12, (i) => `Clothing > Tops ${i}`),
      },
    });
    expect(sourceOf(out, 'Type')).toBe('Categories');
    expect(pairOf(out, 'Product Category')?.empty).toBe(true);
    expect(sourceOf(out, 'Variant Grams')).toBe('Weight (g)');
    const lbs = suggestFor('shopify-products', {
      dataColumns: ['Name', 'Weight (lbs)'],
    });
    expect(pairOf(lbs, 'Variant Grams')?.empty).toBe(true);
  });

  it('the payment purpose feeds Memo; a statement number is not the Reference Number', () => {
    const out = suggestFor('accounting-bank-transactions', {
      dataColumns: ['Buchungstag', 'Auftraggeber/Empfänger', 'Verwendungszweck', 'Betrag', 'Afschriftnummer'],
    });
    expect(sourceOf(out, 'Description')).toBe('Auftraggeber/Empfänger');
    expect(sourceOf(out, 'Memo')).toBe('Verwendungszweck');
    expect(pairOf(out, 'Reference Number')?.empty).toBe(true);
  });
});

describe('more exports', () => {
  it('a name column beside first and last name is the organisation (Wave customers)', () => {
    const out = suggest({
      templateColumns: [
        'First Name',
        'Last Name',
        'Email',
        'Phone Number',
        'Company Name',
        'City',
        'Country/Region',
      ],
      dataColumns: ['customer_name', 'email', 'contact_first_name', 'contact_last_name', 'phone'],
    });
    expect(sourceOf(out, 'Company Name')).toBe('customer_name');
    expect(sourceOf(out, 'First Name')).toBe('contact_first_name');
    // a display name beside first and last name is still the person's (Thunderbird)
    const thunderbird = suggest({
      templateColumns: ['First Name', 'Last Name', 'Company Name'],
      dataColumns: ['First Name', 'Last Name', 'Display Name'],
    });
    expect(sourceOf(thunderbird, 'Company Name')).toBe('');
  });

  it('Outlook: car, radio and assistant phones stay out of Phone; a contact owner is not the Contact Name', () => {
    const out = suggestFor('accounting-vendors', {
      dataColumns: [
        'Company',
        'Contact owner',
        'E-mail Address',
        'Car Phone',
        "Assistant's Phone",
        'Business Phone',
      ],
      samples: {
        'Car Phone': ['+1 555 0100'],
        "Assistant's Phone": ['+1 555 0101'],
        'Business Phone': ['+1 555 0102'],
      },
    });
    expect(sourceOf(out, 'Phone')).toBe('Business Phone');
    expect(sourceOf(out, 'Contact Name')).toBe('');
    expect(sourceOf(out, 'Vendor Name')).toBe('Company');
  });

  it('a contact’s Title is a job title or Mr/Ms by its values', () => {
    const template = ['Job Title', 'Prefix', 'Email'];
    const salesforce = suggest({
      templateColumns: template,
      dataColumns: ['Title', 'Email'],
      samples: { Title: ['CFO', 'Head of Sales'] },
    });
    const outlook = suggest({
      templateColumns: template,
      dataColumns: ['Title', 'Email'],
      samples: { Title: ['Mr.', 'Dr.', 'Ms'] },
    });
    expect([sourceOf(salesforce, 'Job Title'), sourceOf(salesforce, 'Prefix')]).toEqual(['Title', '']);
    expect([sourceOf(outlook, 'Job Title'), sourceOf(outlook, 'Prefix')]).toEqual(['', 'Title']);
  });

  it('Google CSV: the "- Type" columns are not the emails or phones', () => {
    const out = suggest({
      templateColumns: ['Email', 'Phone'],
      dataColumns: [
        'E-mail 1 - Type',
        'E-mail 1 - Value',
        'Phone 1 - Type',
        'Phone 1 - Value',
        'Phone 2 - Type',
        'Phone 2 - Value',
      ],
    });
    expect(sourceOf(out, 'Email')).toBe('E-mail 1 - Value');
    expect(pairOf(out, 'Phone')?.transform).toEqual({
      kind: 'coalesce',
      columns: ['Phone 1 - Value', 'Phone 2 - Value'],
    });
  });

  it('a required column takes its only source from an optional one (Barclays: Description ← Memo)', () => {
    const out = suggestFor('accounting-bank-transactions', {
      dataColumns: ['Number', 'Date', 'Account', 'Amount', 'Subcategory', 'Memo'],
    });
    expect(sourceOf(out, 'Description')).toBe('Memo');
    expect(pairOf(out, 'Memo')?.empty).toBe(true);
    expect(out.unmatched).toEqual([]);
  });

  it('prices with a currency word, image links in a list, a size inside another name', () => {
    const out = suggestFor('shopify-products', {
      dataColumns: ['Nom', 'Tarif régulier', 'Images', 'manufacturer_media_file_size'],
      samples: {
        'Tarif régulier': ['15 000 Fcfa', '9 500 Fcfa'],
        Images: ['https://drive.example.com/file/a/view?usp=x, https://drive.example.com/file/b/view', ''],
        manufacturer_media_file_size: ['1024', '2048'],
      },
    });
    expect(sourceOf(out, 'Variant Price')).toBe('Tarif régulier');
    expect(sourceOf(out, 'Image Src')).toBe('Images');
    expect(pairOf(out, 'Option1 Value')?.empty).toBe(true);
  });
});

describe('card statements', () => {
  const template = ['Date', 'Description', 'Amount'];
  it('flips the sign when a card statement lists charges as positive amounts', () => {
    const out = suggest({
      templateColumns: template,
      dataColumns: ['Merchant Name', 'Card Used For Transaction', 'Date', 'Time', 'Amount'],
      samples: {
        'Card Used For Transaction': ['**** 1234', '**** 4567'],
        Date: ['01/10/2019', '12/15/2018'],
        Amount: ['36.33', '13.98', '-50.00'],
      },
      inferred: { Amount: { kind: 'number', decimalSeparator: '.' } },
    });
    expect(pairOf(out, 'Amount')?.transform).toEqual({ kind: 'number', decimalSeparator: '.', invert: true });
    expect(pairOf(out, 'Amount')?.reason).toContain('card statement lists charges as positive amounts');
    const bank = suggestFor('accounting-bank-transactions', {
      dataColumns: ['Merchant Name', 'Card Used For Transaction', 'Date', 'Amount'],
    });
    expect(sourceOf(bank, 'Account')).toBe('Card Used For Transaction');
  });

  it('leaves a payment provider’s card columns alone (positive amounts are money in)', () => {
    const out = suggest({
      templateColumns: template,
      dataColumns: ['id', 'created', 'amount', 'customer_email', 'card_number', 'description'],
      samples: { amount: ['25.00', '27.50'], customer_email: ['a@example.com', 'b@example.com'] },
      inferred: { amount: { kind: 'amount', decimals: 2 } },
    });
    expect(pairOf(out, 'Amount')?.transform).toEqual({ kind: 'amount', decimals: 2 });
  });
});

describe('issue 27: combinations', () => {
  it('Name ← First + Last when the template has one name column', () => {
    const out = suggestFor('accounting-customers', {
      dataColumns: ['First Name', 'Last Name', 'Email', 'Phone'],
    });
    expect(pairOf(out, 'Name')).toEqual(
      expect.objectContaining({
        dataColumn: '',
        transform: [
          { kind: 'combine', pattern: '{First Name} {Last Name}' },
          { kind: 'trim' },
          { kind: 'truncate', length: 100 },
        ],
      }),
    );
    // a template with first and last name columns keeps them apart
    const hubspot = suggest({
      templateColumns: ['First Name', 'Last Name', 'Email'],
      dataColumns: ['Vorname', 'Nachname', 'E-Mail'],
    });
    expect([sourceOf(hubspot, 'First Name'), sourceOf(hubspot, 'Last Name')]).toEqual([
      'Vorname',
      'Nachname',
    ]);
  });

  it('Address ← Address 1 + Address 2 when the template has one address column', () => {
    const out = suggestFor('accounting-customers', {
      dataColumns: ['Name', 'Email', 'Phone', 'Address1', 'Address2', 'City'],
    });
    expect(pairOf(out, 'Address')?.transform).toEqual({ kind: 'combine', pattern: '{Address1}, {Address2}' });
  });

  it('Phone ← the first non-empty of several typed phone columns; Email likewise', () => {
    const out = suggestFor('accounting-customers', {
      dataColumns: ['Name', 'Email', 'Mobile Phone', 'Home Phone', 'Business Phone', 'Business Fax'],
      samples: {
        'Mobile Phone': ['+44 7700 900123', ''],
        'Home Phone': ['', '020 7946 0001'],
        'Business Phone': ['+44 20 7946 0002', ''],
        'Business Fax': ['+44 20 7946 0003', ''],
      },
    });
    expect(pairOf(out, 'Phone')).toEqual(
      expect.objectContaining({
        dataColumn: '',
        transform: { kind: 'coalesce', columns: ['Mobile Phone', 'Home Phone', 'Business Phone'] },
      }),
    );
    const emails = suggest({
      templateColumns: ['Email'],
      dataColumns: ['E-mail Address', 'E-mail 2 Address'],
      samples: { 'E-mail Address': ['a@example.com', ''], 'E-mail 2 Address': ['', 'b@example.com'] },
    });
    expect(pairOf(emails, 'Email')?.transform).toEqual({
      kind: 'coalesce',
      columns: ['E-mail Address', 'E-mail 2 Address'],
    });
  });

  it('Shopify’s Handle is made from the Title’s column; Option1 Name from the column giving its values', () => {
    const out = suggestFor('shopify-products', {
      dataColumns: ['Product Name', 'Size', 'Price'],
    });
    expect(pairOf(out, 'Handle')).toEqual(
      expect.objectContaining({ dataColumn: 'Product Name', transform: [{ kind: 'slug' }] }),
    );
    expect(sourceOf(out, 'Option1 Value')).toBe('Size');
    expect(pairOf(out, 'Option1 Name')?.transform).toEqual({ kind: 'constant', value: 'Size' });
  });
});

describe('issue 27: values as evidence', () => {
  it('emails under a name that does not say so are the Email', () => {
    const out = suggest({
      templateColumns: ['Email'],
      dataColumns: ['Kontakt'],
      samples: { Kontakt: ['a@b.com', 'c@d.de'] },
    });
    expect(sourceOf(out, 'Email')).toBe('Kontakt');
    expect(pairOf(out, 'Email')?.reason).toBe(
      "'Kontakt' says little by its name, but its values are email addresses.",
    );
  });

  it('a column of one repeated value loses to a varied text column for Description', () => {
    const out = suggest({
      templateColumns: ['Date', 'Description', 'Amount'],
      dataColumns: ['Date', 'Transaction Description', 'Details', 'Amount'],
      samples: {
        'Transaction Description': rows(20, () => 'CARD PAYMENT'),
        Details: rows(20, (i) => `Shop number ${i} in town`),
      },
    });
    expect(sourceOf(out, 'Description')).toBe('Details');
  });

  it('long or HTML text stays a description even when every row repeats it; image file names are images', () => {
    const out = suggestFor('shopify-products', {
      dataColumns: ['Name *', 'Summary', 'Description', 'productImageUrl'],
      samples: {
        Summary: rows(7, () => '<p>New design.</p>'),
        Description: rows(7, () => '<p>New design.</p>'),
        productImageUrl: ['506c6a_bbb95d~mv2.jpg;506c6a_6c88ee~mv2.jpg', '', ''],
      },
    });
    expect(sourceOf(out, 'Body (HTML)')).toBe('Description');
    expect(sourceOf(out, 'Image Src')).toBe('productImageUrl');
  });

  it('countries by their values, states by theirs', () => {
    const out = suggest({
      templateColumns: ['City', 'State', 'Country'],
      dataColumns: ['Town', 'Area', 'Land'],
      samples: { Area: ['Bayern', 'Hessen', 'Berlin'], Land: ['Deutschland', 'Österreich', 'DE'] },
    });
    expect([sourceOf(out, 'State'), sourceOf(out, 'Country')]).toEqual(['Area', 'Land']);
  });

  it('the template’s rules weigh in: a date-typed column takes the dates', () => {
    const out = suggest({
      templateColumns: ['When', 'What'],
      templateRules: { When: { type: 'date', format: 'DD/MM/YYYY' } },
      dataColumns: ['Col A', 'Col B'],
      samples: { 'Col A': ['x', 'y', 'z'], 'Col B': ['2024-01-31', '2024-02-01', '2024-02-02'] },
      inferred: { 'Col B': { kind: 'date', input: 'YYYY-MM-DD', output: 'YYYY-MM-DD' } },
    });
    expect(pairOf(out, 'When')).toEqual(
      expect.objectContaining({
        dataColumn: 'Col B',
        transform: { kind: 'date', input: 'YYYY-MM-DD', output: 'DD/MM/YYYY' },
      }),
    );
  });
});
