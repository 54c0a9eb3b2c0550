import { useEffect, useRef, useState } from 'react';
import useSWR from 'swr';
import type { PreviewResponse } from '@csv-mapper/contracts';
import { errorDescription, isUnauthorizedError } from '../../../lib/api-client';
import { previewMapping, type ProcessBody } from '../api/process-mapping';

export const PREVIEW_DEBOUNCE_MS = 350;

interface PreviewOutcome {
  preview: PreviewResponse | null;
  /** Why the api refused the preview (e.g. a combine pattern left empty), for the preview card. */
  error: string | null;
}
const NO_PREVIEW: PreviewOutcome = { preview: null, error: null };

const fetchPreview = ([, body]: readonly [string, string]) => previewMapping(JSON.parse(body) as ProcessBody);

/**
 * The live preview of step 3 (POST /api/process/preview, no quota): an SWR key of the request body, which
 * settles 350 ms after the last change, so a burst of edits asks once and the last answer wins. The
 * last answer stays up while the next one loads. `body` null (another step, nothing mapped) clears it.
 */
export function usePreview(body: ProcessBody | null, onUnauthorized: () => void) {
  const wanted = body && body.mappings.length > 0 ? JSON.stringify(body) : null;
  const [settled, setSettled] = useState<string | null>(null);
  useEffect(() => {
    if (wanted === null) {
      setSettled(null);
      return;
    }
    const timer = window.setTimeout(() => setSettled(wanted), PREVIEW_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [wanted]);

  const key = wanted === null || settled === null ? null : (['/api/process/preview', settled] as const);
  const { data, error, isValidating } = useSWR<PreviewResponse, unknown>(key, fetchPreview, {
    // The same body asks again (the file's history may have changed).
    revalidateIfStale: true,
    onError: (err) => {
      if (isUnauthorizedError(err)) onUnauthorized();
    },
  });
  // While the next body loads, the last answer (its rows, or why it was refused) stays up.
  const last = useRef<PreviewOutcome>(NO_PREVIEW);
  const outcome: PreviewOutcome =
    key === null
      ? NO_PREVIEW
      : error
        ? {
            preview: null,
            error: errorDescription(error, 'The preview could not be made for these mappings.'),
          }
        : data
          ? { preview: data, error: null }
          : last.current;
  last.current = outcome;
  return { ...outcome, loading: key !== null && isValidating };
}
