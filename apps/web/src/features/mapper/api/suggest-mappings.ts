import type { SuggestMappingsRequest, SuggestMappingsResponse } from '@csv-mapper/contracts';
import { apiJson } from '../../../lib/api-client';

/** POST /api/mappings/suggest: the server's suggested pairs, each with its reason (issue 27). */
export function suggestMappings(body: SuggestMappingsRequest): Promise<SuggestMappingsResponse> {
  return apiJson<SuggestMappingsResponse>('POST', '/api/mappings/suggest', body);
}
