import { BUILT_IN_TEMPLATES, withDerivedPairs } from '@csv-mapper/domain';
import { recogniseBuiltInTemplate } from './recognised-template';

const headersOf = (id: string) => BUILT_IN_TEMPLATES.find((t) => t.id === id)!.columns.map((c) => c.name);

describe('recogniseBuiltInTemplate', () => {
  it("knows a built-in's headers in any order and case, spelled as uploaded", () => {
    const uploaded = headersOf('shopify-products')
      .reverse()
      .map((h) => (h === 'Title' ? 'TITLE' : h === 'Handle' ? 'handle' : h));
    const t = recogniseBuiltInTemplate(uploaded);
    expect(t?.id).toBe('shopify-products');
    const handle = t?.columns.find((c) => c.name === 'handle');
    expect(handle?.derive?.from).toBe('TITLE');
    // the derived Handle follows the Title's data column under the uploaded names
    expect(withDerivedPairs(t!, [{ templateColumn: 'TITLE', dataColumn: 'Product' }])).toContainEqual({
      templateColumn: 'handle',
      dataColumn: 'Product',
      transform: [{ kind: 'slug' }],
    });
  });

  it('takes a fuller export (every built-in column and more), and nothing that lacks one of them', () => {
    expect(recogniseBuiltInTemplate([...headersOf('accounting-customers'), 'Notes'])?.id).toBe(
      'accounting-customers',
    );
    expect(recogniseBuiltInTemplate(headersOf('accounting-customers').slice(1))).toBeNull();
    expect(recogniseBuiltInTemplate(['Date', 'Description', 'Amount'])).toBeNull();
  });
});
