import type { MatchResult, SaveMappingRequest, SavedMappingView } from '@csv-mapper/contracts';
import { useSWRConfig } from 'swr';
import { apiJson } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';

/** GET /api/mappings/:id (loadMapping). */
export function getSavedMapping(id: string): Promise<SavedMappingView> {
  return apiJson<SavedMappingView>('GET', `/api/mappings/${encodeURIComponent(id)}`);
}

/** POST /api/mappings/match: the saved mapping that fits a data file's headers, if any. */
export function matchSavedMapping(headers: string[]): Promise<MatchResult> {
  return apiJson<MatchResult>('POST', '/api/mappings/match', { headers });
}

/** POST /api/mappings, then refreshes the saved list and the profile's usage. */
export function useSaveMapping() {
  const { mutate } = useSWRConfig();
  return async (body: SaveMappingRequest): Promise<SavedMappingView> => {
    const saved = await apiJson<SavedMappingView>('POST', '/api/mappings', body);
    await Promise.all([mutate(swrKeys.mappings), mutate(swrKeys.profile)]);
    return saved;
  };
}
