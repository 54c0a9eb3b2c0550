import useSWR from 'swr';
import { getQueryFn } from '../../../lib/api-client';
import type { OpenApiDocument } from '../utils/endpoints';

const OPENAPI_URL = '/api/docs/openapi.json';

/** GET /api/docs/openapi.json: the document the api generates from its controllers (public). */
export function useOpenApiDocument() {
  return useSWR<OpenApiDocument | null>(OPENAPI_URL, getQueryFn<OpenApiDocument>({ on401: 'throw' }), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
}
