import type { TemplateView } from '@csv-mapper/contracts';
import useSWR from 'swr';
import { getQueryFn } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';

/** GET /api/templates: the built-in target templates. */
export function useTemplates() {
  return useSWR<TemplateView[] | null>(swrKeys.templates, getQueryFn<TemplateView[]>({ on401: 'throw' }), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
}
