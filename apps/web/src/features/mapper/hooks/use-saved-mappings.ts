import { useEffect, useRef, type Dispatch } from 'react';
import type { DuplicatesMode } from '@csv-mapper/contracts';
import { showToast } from '../../../components/toaster';
import { getSavedMapping, useSaveMapping } from '../api/saved-mapping';
import type { ApiErrorReporter } from './use-api-error';
import type { MapperAction, MapperState } from './use-mapper-state';

/** The saved mapping this run is (sent as its mappingId). */
type UsingSaved = (id: string, name: string) => void;

/**
 * ?loadMapping=<id> (spec §4): a virtual template from the saved headers, the saved pairs, a toast. Loads
 * each id once while the wizard is mounted.
 */
export function useLoadMapping(
  id: string | null,
  {
    dispatch,
    using,
    reportError,
  }: { dispatch: Dispatch<MapperAction>; using: UsingSaved; reportError: ApiErrorReporter },
) {
  const loaded = useRef<string | null>(null);
  useEffect(() => {
    if (!id || loaded.current === id) return;
    loaded.current = id;
    getSavedMapping(id).then(
      (m) => {
        dispatch({
          type: 'loadMapping',
          name: m.name,
          templateHeaders: m.templateHeaders,
          mappings: m.mappings,
          templateRules: m.templateRules,
        });
        using(m.id, m.name);
        showToast({ title: 'Mapping loaded', description: m.name, type: 'success' });
      },
      (err: unknown) => reportError(err, 'Failed to load mapping', 'The saved mapping could not be loaded.'),
    );
  }, [id, dispatch, using, reportError]);
}

/** Save Mapping: the current pairs and rules under a name; resolves whether it was saved. */
export function useSaveCurrentMapping(
  {
    template,
    data,
    mappings,
    templateRules,
  }: Pick<MapperState, 'template' | 'data' | 'mappings' | 'templateRules'>,
  { using, reportError }: { using: UsingSaved; reportError: ApiErrorReporter },
) {
  const saveMapping = useSaveMapping();
  return async (name: string, description: string, duplicates: DuplicatesMode): Promise<boolean> => {
    if (!template) return false;
    try {
      const saved = await saveMapping({
        name,
        ...(description ? { description } : {}),
        templateHeaders: template.headers,
        dataHeaders: data?.headers ?? [],
        mappings,
        ...(Object.keys(templateRules).length > 0 ? { templateRules } : {}),
        duplicates,
      });
      using(saved.id, saved.name);
      showToast({
        title: 'Mapping saved successfully',
        description: 'You can reuse this mapping configuration later.',
        type: 'success',
      });
      return true;
    } catch (err) {
      reportError(err, 'Save failed', 'Failed to save mapping');
      return false;
    }
  };
}
