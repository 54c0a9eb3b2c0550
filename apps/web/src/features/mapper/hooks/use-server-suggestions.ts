import { useEffect, useState, type Dispatch } from 'react';
import type { MappingPair } from '@csv-mapper/contracts';
import { isUnauthorizedError } from '../../../lib/api-client';
import { suggestMappings } from '../api/suggest-mappings';
import { builtInOf, VIRTUAL_TEMPLATE_PREFIX, type MapperAction, type MapperFile } from './use-mapper-state';

// Step 3 is pre-filled from POST /api/mappings/suggest (issue 27): one suggester, on the server, for the
// web app and API clients alike. Asked once per pair of files (and again when a file is read another way);
// the reducer applies the answer only while the board is still empty, so a loaded or hand-made mapping wins.

export interface ServerSuggestions {
  /** Why each suggested template column got its pair (shown on its card). */
  reasons: Record<string, string>;
  loading: boolean;
}

export function useServerSuggestions(
  template: MapperFile | null,
  data: MapperFile | null,
  dispatch: Dispatch<MapperAction>,
  onUnauthorized: () => void,
): ServerSuggestions {
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [loading, setLoading] = useState(false);
  const builtIn = builtInOf(template);
  // A loaded mapping's headers are no file the server has: nothing to ask about.
  const templateRef = !template
    ? null
    : builtIn
      ? { templateId: builtIn.id }
      : template.id.startsWith(VIRTUAL_TEMPLATE_PREFIX)
        ? null
        : { templateFileId: template.id };
  const key =
    templateRef && data ? JSON.stringify([templateRef, data.id, data.headers, template?.headers]) : '';

  useEffect(() => {
    setReasons({});
    if (!key || !data || !template || !templateRef) return;
    let current = true;
    setLoading(true);
    suggestMappings({ dataFileId: data.id, ...templateRef })
      .then(
        (s) => {
          if (!current) return;
          const mappings: MappingPair[] = s.mappings.map(({ confidence: _c, reason: _r, ...pair }) => ({
            ...pair,
            dataColumn: pair.dataColumn ?? '',
          }));
          setReasons(Object.fromEntries(s.mappings.map((m) => [m.templateColumn, m.reason])));
          dispatch({ type: 'suggestionsLoaded', templateId: template.id, dataId: data.id, mappings });
        },
        (err: unknown) => {
          // Suggestions are a help: without them the board stays empty and mapping by hand works.
          if (current && isUnauthorizedError(err)) onUnauthorized();
        },
      )
      .finally(() => {
        if (current) setLoading(false);
      });
    return () => {
      current = false;
    };
    // `key` stands for the files and template asked about.
  }, [key]);

  return { reasons, loading };
}
