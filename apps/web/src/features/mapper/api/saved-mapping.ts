import { useSWRConfig } from 'swr';
import { apiJson } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';
import type { MappingPair, SavedMapping } from './types';

export interface SaveMappingBody {
  name: string;
  description?: string;
  templateHeaders: string[];
  dataHeaders: string[];
  mappings: MappingPair[];
}

/** GET /api/mappings/:id (loadMapping). */
export function getSavedMapping(id: string): Promise<SavedMapping> {
  return apiJson<SavedMapping>('GET', `/api/mappings/${encodeURIComponent(id)}`);
}

/** POST /api/mappings/match: the saved mapping that fits a data file's headers, if any. */
export function matchSavedMapping(
  headers: string[],
): Promise<{ mapping: SavedMapping | null; score: number }> {
  return apiJson('POST', '/api/mappings/match', { headers });
}

/** POST /api/mappings, then refreshes the saved list and the profile's usage. */
export function useSaveMapping() {
  const { mutate } = useSWRConfig();
  return async (body: SaveMappingBody): Promise<SavedMapping> => {
    const saved = await apiJson<SavedMapping>('POST', '/api/mappings', body);
    await Promise.all([mutate(swrKeys.mappings), mutate(swrKeys.profile)]);
    return saved;
  };
}
