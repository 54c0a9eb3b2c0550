import type {
  BuiltInTemplate,
  TemplateCategory,
  TemplateColumn,
  TemplateColumnRules,
  TemplateTransform,
} from '@csv-mapper/domain';

// GET /api/templates: the built-in target templates (libs/domain's BUILT_IN_TEMPLATES, each with its
// column names as `headers`). The classes give the OpenAPI document their shape; `implements` keeps them
// in step with the domain's types.

/** One column of a built-in template. */
export class TemplateColumnView implements TemplateColumn {
  /** @example "Variant Price" */
  name: string;
  required: boolean;
  /** Applied when a data column is mapped onto this one, unless another transform is chosen. */
  defaultTransform?: TemplateTransform | TemplateTransform[];
  /** Short help shown beside the column. */
  hint?: string;
  /** What the target system accepts here (`required` mirrors the flag above). */
  rules?: TemplateColumnRules;
  /**
   * When no data column is mapped onto this column: fill it from the data column mapped onto template
   * column `from`, through `transform` (e.g. Shopify's Handle as a slug of the Title).
   */
  derive?: { from: string; transform: TemplateTransform[] };
}

/** A built-in target template with its column names as headers. */
export class TemplateView implements BuiltInTemplate {
  /** @example "shopify-products" */
  id: string;
  name: string;
  description: string;
  category: TemplateCategory;
  columns: TemplateColumnView[];
  /** The columns' names, in order: send them as `templateHeaders` with templateFileId "virtual-template-<id>". */
  headers: string[];
}
