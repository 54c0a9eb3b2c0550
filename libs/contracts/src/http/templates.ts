import type { BuiltInTemplate } from '@csv-mapper/domain';

/** GET /api/templates: a built-in target template with its column names as headers. */
export type TemplateView = BuiltInTemplate & { headers: string[] };

// Each column of a built-in template carries its `rules` (BuiltInTemplate's TemplateColumn.rules).
