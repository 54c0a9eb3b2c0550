import useSWR from 'swr';
import type { BuiltInTemplate } from '@csv-mapper/domain';
import { getQueryFn } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';

export type TemplateView = BuiltInTemplate & { headers: string[] };

/** GET /api/templates: the built-in target templates. */
export function useTemplates() {
  return useSWR<TemplateView[] | null>(swrKeys.templates, getQueryFn<TemplateView[]>({ on401: 'throw' }), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
}
