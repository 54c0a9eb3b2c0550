// Built-in target templates: the column lists of the systems our users import into, with required flags
// (spec §3), sensible default transforms and each column's rules (issue 22). Shared by api (virtual
// templates), worker and web (pickers).
//
// Rules follow the target systems' published import specs:
// - Shopify Help Center, "Using CSV files to import and export products" (product CSV format): Handle
//   is lowercase letters, numbers and hyphens (no spaces), rows of one product share it; Title is
//   required; Published is TRUE/FALSE; Status is active, draft or archived; prices are plain numbers;
//   Variant Grams and Inventory Qty are whole numbers; Image Src is a URL. Handle and Title are at most
//   255 characters (the Admin API's product handle/title limit).
// - Intuit QuickBooks Online Accounting API reference, Customer and Vendor entities: names
//   (CompanyName, GivenName/FamilyName) at most 100 characters, PrimaryEmailAddr at most 100,
//   phone numbers (FreeFormNumber) at most 30, PostalCode at most 30, TaxIdentifier at most 20.
// - QuickBooks Online help, "Format CSV files to upload bank transactions": a date column in one
//   format (MM/DD/YYYY here), a description and one signed amount column, no currency symbols.

/**
 * A transform a template suggests for a column. Structurally the same as csv-engine's `Transform`
 * (libs/domain stays free of imports), so it can be passed straight into a MappingPair.
 */
export type TemplateTransform =
  | { kind: 'date'; input?: 'auto' | string; output: string }
  | { kind: 'number'; decimalSeparator?: 'auto' | '.' | ','; decimals?: number }
  | { kind: 'amount'; decimals?: number; negative?: 'minus' | 'parentheses' }
  | { kind: 'boolean'; output: [string, string] }
  | { kind: 'trim' | 'upper' | 'lower' | 'slug' }
  | { kind: 'truncate'; length: number };

/** A column's rules; structurally the contract's ColumnRules (checked on every output cell). */
export interface TemplateColumnRules {
  required?: boolean;
  type?: 'text' | 'number' | 'amount' | 'date' | 'boolean' | 'email' | 'url';
  format?: string;
  maxLength?: number;
  allowed?: string[];
  unique?: boolean;
}

export interface TemplateColumn {
  name: string;
  required: boolean;
  /** Applied when a data column is mapped onto this one, unless the user picks another transform. */
  defaultTransform?: TemplateTransform | TemplateTransform[];
  /** Short help shown beside the column. */
  hint?: string;
  /** What the target system accepts here (`required` mirrors the flag above). */
  rules?: TemplateColumnRules;
  /**
   * When no data column is mapped onto this column: fill it from the data column mapped onto
   * template column `from`, through `transform` (e.g. Shopify's Handle as a slug of the Title).
   */
  derive?: { from: string; transform: TemplateTransform[] };
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
  defaultTransform?: TemplateTransform | TemplateTransform[],
  hint?: string,
  rules: TemplateColumnRules = {},
): TemplateColumn => ({
  name,
  required,
  ...(defaultTransform ? { defaultTransform } : {}),
  ...(hint ? { hint } : {}),
  rules: required ? { required: true, ...rules } : rules,
});

/** A name field of QuickBooks Online (100 characters): trimmed, cut to the limit with a warning. */
const QBO_NAME = 100;
const qboName: TemplateTransform[] = [{ kind: 'trim' }, { kind: 'truncate', length: QBO_NAME }];

const amount: TemplateTransform = { kind: 'amount', decimals: 2 };
const trueFalse: TemplateTransform = { kind: 'boolean', output: ['TRUE', 'FALSE'] };

export const BUILT_IN_TEMPLATES: readonly BuiltInTemplate[] = [
  {
    id: 'shopify-products',
    name: 'Shopify products',
    description: "Shopify's product CSV: one row per product or variant. Handle and Title are required.",
    category: 'ecommerce',
    columns: [
      {
        ...col(
          'Handle',
          true,
          { kind: 'slug' },
          'URL name of the product, e.g. blue-mug; rows of one product share it. Made from the Title when no column is mapped.',
          { maxLength: 255 },
        ),
        derive: { from: 'Title', transform: [{ kind: 'slug' }] },
      },
      col('Title', true, undefined, undefined, { maxLength: 255 }),
      col('Body (HTML)'),
      col('Vendor'),
      col('Product Category'),
      col('Type'),
      col('Tags'),
      col('Published', false, trueFalse, undefined, { type: 'boolean' }),
      col('Option1 Name'),
      col('Option1 Value'),
      col('Variant SKU', false, { kind: 'trim' }),
      col('Variant Grams', false, { kind: 'number', decimals: 0 }, undefined, { type: 'number' }),
      col('Variant Inventory Qty', false, { kind: 'number', decimals: 0 }, undefined, { type: 'number' }),
      col('Variant Price', false, amount, undefined, { type: 'amount' }),
      col('Variant Compare At Price', false, amount, undefined, { type: 'amount' }),
      col('Image Src', false, undefined, undefined, { type: 'url' }),
      col('Status', false, { kind: 'lower' }, 'active, draft or archived', {
        allowed: ['active', 'draft', 'archived'],
      }),
    ],
  },
  {
    id: 'accounting-customers',
    name: 'Customers (accounting)',
    description: 'Customer list for QuickBooks-style accounting imports. Name, Email and Phone are required.',
    category: 'accounting',
    columns: [
      col('Name', true, qboName, `At most ${QBO_NAME} characters (longer names are cut)`, {
        maxLength: QBO_NAME,
      }),
      col('Email', true, { kind: 'lower' }, undefined, { type: 'email', maxLength: 100 }),
      col('Phone', true, undefined, undefined, { maxLength: 30 }),
      col('Address'),
      col('City'),
      col('State'),
      col('ZIP', false, undefined, undefined, { maxLength: 30 }),
      col('Payment Terms'),
      col('Credit Limit', false, amount, undefined, { type: 'amount' }),
    ],
  },
  {
    id: 'accounting-vendors',
    name: 'Vendors (accounting)',
    description:
      'Vendor list for QuickBooks-style accounting imports. Vendor Name, Contact Name and Email Address are required.',
    category: 'accounting',
    columns: [
      col('Vendor Name', true, qboName, `At most ${QBO_NAME} characters (longer names are cut)`, {
        maxLength: QBO_NAME,
      }),
      col('Contact Name', true, qboName, undefined, { maxLength: QBO_NAME }),
      col('Email Address', true, { kind: 'lower' }, undefined, { type: 'email', maxLength: 100 }),
      col('Tax ID', false, undefined, undefined, { maxLength: 20 }),
      col('Phone', false, undefined, undefined, { maxLength: 30 }),
      col('Fax', false, undefined, undefined, { maxLength: 30 }),
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
      col('Date', true, { kind: 'date', input: 'auto', output: 'MM/DD/YYYY' }, 'MM/DD/YYYY', {
        type: 'date',
        format: 'MM/DD/YYYY',
      }),
      col('Description', true, { kind: 'trim' }),
      col('Amount', true, amount, 'Positive for money in, negative for money out', { type: 'amount' }),
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

/** The template's rules by column (columns without rules left out). */
export function templateRulesOf(t: BuiltInTemplate): Record<string, TemplateColumnRules> {
  const out: Record<string, TemplateColumnRules> = {};
  for (const c of t.columns) if (c.rules && Object.keys(c.rules).length > 0) out[c.name] = c.rules;
  return out;
}

/**
 * A mapping pair as the template functions read and write it (structurally the contract's MappingPair);
 * `S` is one step of its transform (the contract's Transform).
 */
export interface TemplatePair<S = unknown> {
  templateColumn: string;
  dataColumn: string;
  transform?: S | S[];
}

/**
 * Adds the pairs of derived columns (e.g. Shopify's Handle from the Title's data column, as a slug)
 * when nothing is mapped onto them and their source column is mapped from a data column. A derived pair's
 * steps are its source's text steps and the template's own.
 */
export function withDerivedPairs<S, P extends TemplatePair<S>>(
  t: BuiltInTemplate,
  pairs: readonly (P & TemplatePair<S>)[],
): (P | TemplatePair<S | TemplateTransform>)[] {
  const byColumn = new Map(pairs.map((p) => [p.templateColumn, p]));
  const out: (P | TemplatePair<S | TemplateTransform>)[] = [...pairs];
  for (const c of t.columns) {
    if (!c.derive || byColumn.has(c.name)) continue;
    const from = byColumn.get(c.derive.from);
    if (!from || !from.dataColumn) continue;
    const before: S[] =
      from.transform === undefined ? [] : Array.isArray(from.transform) ? from.transform : [from.transform];
    // Byte transforms (dates, numbers) only lead a chain; a derived text column starts from the raw text.
    const textOnly = before.every((s) => TEXT_STEPS.has(kindOf(s)));
    out.push({
      templateColumn: c.name,
      dataColumn: from.dataColumn,
      transform: [...(textOnly ? before : []), ...c.derive.transform],
    });
  }
  return out;
}

const TEXT_STEPS = new Set(['trim', 'upper', 'lower']);

/** A transform step's kind ('' when it has none). */
function kindOf(step: unknown): string {
  return typeof step === 'object' && step !== null && 'kind' in step && typeof step.kind === 'string'
    ? step.kind
    : '';
}

export function requiredColumns(t: BuiltInTemplate): string[] {
  return t.columns.filter((c) => c.required).map((c) => c.name);
}

/** Template ids of this form name a built-in (or hand-made) template sent as `templateHeaders`. */
export const VIRTUAL_TEMPLATE_PREFIX = 'virtual-template-';
