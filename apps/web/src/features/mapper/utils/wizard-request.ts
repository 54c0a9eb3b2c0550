import type { TemplateRules } from '@csv-mapper/contracts';
import type { ProcessBody } from '../api/process-mapping';
import { builtInOf, VIRTUAL_TEMPLATE_PREFIX, type MapperState } from '../hooks/use-mapper-state';

/**
 * The run's request (preview, generate, batch): both files, the pairs, the saved mapping in use, a built-in
 * template's headers (it was never uploaded) and the rules the user added. Null until both files are in.
 */
export function processBody(
  {
    template,
    data,
    mappings,
    templateRules,
  }: Pick<MapperState, 'template' | 'data' | 'mappings' | 'templateRules'>,
  savedId: string | undefined,
): ProcessBody | null {
  if (!template || !data) return null;
  return {
    templateFileId: template.id,
    dataFileId: data.id,
    mappings,
    ...(savedId ? { mappingId: savedId } : {}),
    ...(template.id.startsWith(VIRTUAL_TEMPLATE_PREFIX) ? { templateHeaders: template.headers } : {}),
    ...(Object.keys(templateRules).length > 0 ? { templateRules } : {}),
  };
}

/** The rules the review grid checks edits against: the built-in template's own, then the user's. */
export function reviewRulesOf({
  template,
  templateRules,
}: Pick<MapperState, 'template' | 'templateRules'>): TemplateRules {
  return {
    ...Object.fromEntries(
      (builtInOf(template)?.columns ?? []).flatMap((c) => {
        const rules = (c as { rules?: object }).rules;
        return rules ? [[c.name, rules]] : [];
      }),
    ),
    ...templateRules,
  };
}
