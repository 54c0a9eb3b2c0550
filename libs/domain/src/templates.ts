// Built-in target templates: the column lists of the systems our users import into, with required flags
// (spec §3) and sensible default transforms. Shared by api (virtual templates), worker and web (pickers).

/**
 * A transform a template suggests for a column. Structurally the same as csv-engine's `Transform`
 * (libs/domain stays free of imports), so it can be passed straight into a MappingPair.
 */
export type TemplateTransform =
  | { kind: 'date'; input?: 'auto' | string; output: string }
  | { kind: 'number'; decimalSeparator?: 'auto' | '.' | ','; decimals?: number }
  | { kind: 'amount'; decimals?: number; negative?: 'minus' | 'parentheses' }
  | { kind: 'boolean'; output: [string, string] }
  | { kind: 'trim' | 'upper' | 'lower' };

export interface TemplateColumn {
  name: string;
  required: boolean;
  /** Applied when a data column is mapped onto this one, unless the user picks another transform. */
  defaultTransform?: TemplateTransform;
  /** Short help shown beside the column. */
  hint?: string;
}

export type TemplateCategory = 'ecommerce' | 'accounting';

export interface BuiltInTemplate {
  id: string;
  name: string;
  description: string;
  category: TemplateCategory;
  columns: TemplateColumn[];
}

const col = (
  name: string,
  required = false,
  defaultTransform?: TemplateTransform,
  hint?: string,
): TemplateColumn => ({
  name,
  required,
  ...(defaultTransform ? { defaultTransform } : {}),
  ...(hint ? { hint } : {}),
});

const amount: TemplateTransform = { kind: 'amount', decimals: 2 };
const trueFalse: TemplateTransform = { kind: 'boolean', output: ['TRUE', 'FALSE'] };

export const BUILT_IN_TEMPLATES: readonly BuiltInTemplate[] = [
  {
    id: 'shopify-products',
    name: 'Shopify products',
    description: "Shopify's product CSV: one row per product or variant. Handle and Title are required.",
    category: 'ecommerce',
    columns: [
      col(
        'Handle',
        true,
        { kind: 'lower' },
        'URL name of the product, e.g. blue-mug; rows of one product share it',
      ),
      col('Title', true),
      col('Body (HTML)'),
      col('Vendor'),
      col('Product Category'),
      col('Type'),
      col('Tags'),
      col('Published', false, trueFalse),
      col('Option1 Name'),
      col('Option1 Value'),
      col('Variant SKU', false, { kind: 'trim' }),
      col('Variant Grams', false, { kind: 'number', decimals: 0 }),
      col('Variant Inventory Qty', false, { kind: 'number', decimals: 0 }),
      col('Variant Price', false, amount),
      col('Variant Compare At Price', false, amount),
      col('Image Src'),
      col('Status', false, { kind: 'lower' }, 'active, draft or archived'),
    ],
  },
  {
    id: 'accounting-customers',
    name: 'Customers (accounting)',
    description: 'Customer list for QuickBooks-style accounting imports. Name, Email and Phone are required.',
    category: 'accounting',
    columns: [
      col('Name', true, { kind: 'trim' }),
      col('Email', true, { kind: 'lower' }),
      col('Phone', true),
      col('Address'),
      col('City'),
      col('State'),
      col('ZIP'),
      col('Payment Terms'),
      col('Credit Limit', false, amount),
    ],
  },
  {
    id: 'accounting-vendors',
    name: 'Vendors (accounting)',
    description:
      'Vendor list for QuickBooks-style accounting imports. Vendor Name, Contact Name and Email Address are required.',
    category: 'accounting',
    columns: [
      col('Vendor Name', true, { kind: 'trim' }),
      col('Contact Name', true, { kind: 'trim' }),
      col('Email Address', true, { kind: 'lower' }),
      col('Tax ID'),
      col('Phone'),
      col('Fax'),
      col('Payment Terms'),
      col('1099 Eligible', false, { kind: 'boolean', output: ['Yes', 'No'] }),
    ],
  },
  {
    id: 'accounting-bank-transactions',
    name: 'Bank transactions (accounting)',
    description:
      'Bank statement lines for QuickBooks-style imports: Date (MM/DD/YYYY), Description and a signed Amount are required.',
    category: 'accounting',
    columns: [
      col('Date', true, { kind: 'date', input: 'auto', output: 'MM/DD/YYYY' }, 'MM/DD/YYYY'),
      col('Description', true, { kind: 'trim' }),
      col('Amount', true, amount, 'Positive for money in, negative for money out'),
      col('Reference Number'),
      col('Account'),
      col('Memo'),
    ],
  },
];

export function findBuiltInTemplate(id: string): BuiltInTemplate | undefined {
  return BUILT_IN_TEMPLATES.find((t) => t.id === id);
}

/** Template headers in order, as the mapper and the engine use them. */
export function templateHeaders(t: BuiltInTemplate): string[] {
  return t.columns.map((c) => c.name);
}

export function requiredColumns(t: BuiltInTemplate): string[] {
  return t.columns.filter((c) => c.required).map((c) => c.name);
}

/** Template ids of this form name a built-in (or hand-made) template sent as `templateHeaders`. */
export const VIRTUAL_TEMPLATE_PREFIX = 'virtual-template-';
