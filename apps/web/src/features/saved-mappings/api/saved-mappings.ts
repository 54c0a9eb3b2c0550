import type { DuplicatesMode, Recipe, SaveMappingRequest, SavedMappingView } from '@csv-mapper/contracts';
import useSWR, { useSWRConfig } from 'swr';
import { apiJson, getQueryFn } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';

const MAPPINGS_FRESH_MS = 30 * 1000;

/** GET /api/mappings, fresh for 30 s (spec §7). */
export function useSavedMappings() {
  return useSWR<SavedMappingView[] | null>(
    swrKeys.mappings,
    getQueryFn<SavedMappingView[]>({ on401: 'throw' }),
    {
      dedupingInterval: MAPPINGS_FRESH_MS,
      revalidateOnFocus: false,
      shouldRetryOnError: false,
    },
  );
}

/** GET /api/mappings/:id/recipe: the saved mapping as a versioned JSON recipe. */
export function getRecipe(id: string): Promise<Recipe> {
  return apiJson<Recipe>('GET', `/api/mappings/${encodeURIComponent(id)}/recipe`);
}

/** What a saved mapping's later runs do with rows an earlier run exported, and what identifies a row. */
export interface HistorySettings {
  duplicates: DuplicatesMode;
  /** Template columns; null: the whole output row. */
  historyKeyColumns: string[] | null;
}

/** The PUT body that saves `m` as it is, with other history settings. */
export function withHistorySettings(m: SavedMappingView, s: HistorySettings): SaveMappingRequest {
  return {
    name: m.name,
    description: m.description,
    templateHeaders: m.templateHeaders,
    dataHeaders: m.dataHeaders,
    mappings: m.mappings,
    output: m.output,
    reading: m.reading,
    ...(m.templateRules ? { templateRules: m.templateRules } : {}),
    duplicates: s.duplicates,
    historyKeyColumns: s.historyKeyColumns,
  };
}

/**
 * DELETE /api/mappings/:id, POST /api/mappings (an old-style export), POST /api/mappings/import (a
 * recipe, validated by the api) and PUT /api/mappings/:id (history settings), refreshing the list and
 * the profile.
 */
export function useMappingActions() {
  const { mutate } = useSWRConfig();
  const refresh = () => Promise.all([mutate(swrKeys.mappings), mutate(swrKeys.profile)]);
  return {
    remove: async (id: string) => {
      await apiJson('DELETE', `/api/mappings/${encodeURIComponent(id)}`);
      await refresh();
    },
    create: async (body: SaveMappingRequest) => {
      const saved = await apiJson<SavedMappingView>('POST', '/api/mappings', body);
      await refresh();
      return saved;
    },
    saveHistorySettings: async (m: SavedMappingView, settings: HistorySettings) => {
      const saved = await apiJson<SavedMappingView>(
        'PUT',
        `/api/mappings/${encodeURIComponent(m.id)}`,
        withHistorySettings(m, settings),
      );
      await refresh();
      return saved;
    },
    importRecipe: async (recipe: unknown) => {
      const saved = await apiJson<SavedMappingView>('POST', '/api/mappings/import', recipe);
      await refresh();
      return saved;
    },
  };
}
