import { BUILT_IN_TEMPLATES, findBuiltInTemplate, requiredColumns, templateHeaders } from './templates';

describe('built-in templates', () => {
  it('has unique ids and unique column names per template', () => {
    expect(new Set(BUILT_IN_TEMPLATES.map((t) => t.id)).size).toBe(BUILT_IN_TEMPLATES.length);
    for (const t of BUILT_IN_TEMPLATES) expect(new Set(templateHeaders(t)).size).toBe(t.columns.length);
  });

  it("Shopify products: Shopify's columns in order, Handle and Title required", () => {
    const t = findBuiltInTemplate('shopify-products');
    expect(t && templateHeaders(t)).toEqual([
      'Handle',
      'Title',
      'Body (HTML)',
      'Vendor',
      'Product Category',
      'Type',
      'Tags',
      'Published',
      'Option1 Name',
      'Option1 Value',
      'Variant SKU',
      'Variant Grams',
      'Variant Inventory Qty',
      'Variant Price',
      'Variant Compare At Price',
      'Image Src',
      'Status',
    ]);
    expect(t && requiredColumns(t)).toEqual(['Handle', 'Title']);
  });

  it('accounting templates carry the required fields of spec §3', () => {
    const req = (id: string) => requiredColumns(findBuiltInTemplate(id) ?? BUILT_IN_TEMPLATES[0]);
    expect(req('accounting-customers')).toEqual(['Name', 'Email', 'Phone']);
    expect(req('accounting-vendors')).toEqual(['Vendor Name', 'Contact Name', 'Email Address']);
    expect(req('accounting-bank-transactions')).toEqual(['Date', 'Description', 'Amount']);
    const bank = findBuiltInTemplate('accounting-bank-transactions');
    expect(bank?.columns.find((c) => c.name === 'Date')?.defaultTransform).toEqual({
      kind: 'date',
      input: 'auto',
      output: 'MM/DD/YYYY',
    });
    expect(bank?.columns.find((c) => c.name === 'Amount')?.defaultTransform).toEqual({
      kind: 'amount',
      decimals: 2,
    });
    expect(templateHeaders(findBuiltInTemplate('accounting-customers') ?? BUILT_IN_TEMPLATES[0])).toEqual([
      'Name',
      'Email',
      'Phone',
      'Address',
      'City',
      'State',
      'ZIP',
      'Payment Terms',
      'Credit Limit',
    ]);
  });
});
