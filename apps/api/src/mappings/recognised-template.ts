import { BUILT_IN_TEMPLATES, type BuiltInTemplate } from '@csv-mapper/domain';

/**
 * The built-in template an uploaded template is (issue 27): every column of the built-in is among the
 * uploaded headers (any order, any case; a fuller export such as Shopify's own product CSV may have more).
 * The built-in comes back with its column names spelled as uploaded, so its rules, required columns and
 * derived columns (Shopify's Handle from the Title) apply to the uploaded headers. When several fit, the
 * one with the most columns wins.
 */
export function recogniseBuiltInTemplate(headers: readonly string[]): BuiltInTemplate | null {
  const byKey = new Map<string, string>();
  for (const h of headers) {
    const key = h.trim().toLowerCase();
    if (!byKey.has(key)) byKey.set(key, h);
  }
  let best: BuiltInTemplate | null = null;
  for (const t of BUILT_IN_TEMPLATES) {
    if (!t.columns.every((c) => byKey.has(c.name.toLowerCase()))) continue;
    if (best && best.columns.length >= t.columns.length) continue;
    const spelled = (name: string) => byKey.get(name.toLowerCase()) ?? name;
    best = {
      ...t,
      columns: t.columns.map((c) => ({
        ...c,
        name: spelled(c.name),
        ...(c.derive ? { derive: { ...c.derive, from: spelled(c.derive.from) } } : {}),
      })),
    };
  }
  return best;
}
