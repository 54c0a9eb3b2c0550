import { useCallback, useState, type Dispatch } from 'react';
import type { MappingMatch, SourceChanges } from '@csv-mapper/contracts';
import { showToast } from '../../../components/toaster';
import { getSavedMapping, matchSavedMapping } from '../api/saved-mapping';
import { describeMissing } from '../utils/source-changes';
import type { ApiErrorReporter } from './use-api-error';
import type { MapperAction, MapperFile } from './use-mapper-state';

// Source recognition in the mapper (issue 30): the saved mappings a data file fits, with what changed in
// its columns; using one fills in its pairs — adapted to renamed columns — and remembers which saved
// mapping this run is (sent as the run's mappingId, so its history and duplicates mode apply).

/** The saved mapping in use, and what changed in the file since it was saved. */
export interface SourceInUse {
  id: string;
  name: string;
  changes?: SourceChanges;
  /** "Map 'Value' yourself: 'Amount' is not in this file." or ''. */
  missingNote: string;
}

export function useRecognisedSources({
  signedIn,
  templateHeaders,
  dispatch,
  reportError,
}: {
  signedIn: boolean;
  templateHeaders: string[] | null;
  dispatch: Dispatch<MapperAction>;
  reportError: ApiErrorReporter;
}) {
  const [matches, setMatches] = useState<MappingMatch[]>([]);
  const [inUse, setInUse] = useState<SourceInUse | null>(null);

  /** A data file arrived (or was read again): the upload's matches, else ask the api. */
  const offer = useCallback(
    (file: MapperFile) => {
      if (file.type !== 'data') return;
      if (file.matchingMappings) setMatches(file.matchingMappings.slice(0, 3));
      else if (signedIn) {
        matchSavedMapping(file.headers).then(
          (m) => setMatches(m.mapping ? [{ id: m.mapping.id, name: m.mapping.name, score: m.score }] : []),
          () => setMatches([]),
        );
      }
    },
    [signedIn],
  );

  const clear = useCallback(() => {
    setMatches([]);
    setInUse(null);
  }, []);

  /** A mapping loaded by ?loadMapping or saved in the mapper is the one these runs belong to. */
  const using = useCallback((id: string, name: string) => setInUse({ id, name, missingNote: '' }), []);

  const apply = (m: MappingMatch) =>
    getSavedMapping(m.id).then(
      (saved) => {
        setMatches([]);
        const pairs = m.adaptedMapping ?? saved.mappings;
        if (templateHeaders && saved.templateHeaders.join('\u0000') === templateHeaders.join('\u0000')) {
          dispatch({ type: 'setMappings', mappings: pairs });
        } else {
          dispatch({
            type: 'loadMapping',
            name: saved.name,
            templateHeaders: saved.templateHeaders,
            mappings: pairs,
          });
        }
        setInUse({
          id: saved.id,
          name: saved.name,
          ...(m.changes ? { changes: m.changes } : {}),
          missingNote: describeMissing(m.missingColumns, saved.mappings),
        });
        showToast({ title: 'Mapping loaded', description: saved.name, type: 'success' });
      },
      (err: unknown) => reportError(err, 'Failed to load mapping', 'The saved mapping could not be loaded.'),
    );

  return { matches, inUse, offer, clear, using, apply };
}
