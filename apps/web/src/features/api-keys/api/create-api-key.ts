import type { CreateApiKeyRequest, CreatedApiKeyView } from '@csv-mapper/contracts';
import { useSWRConfig } from 'swr';
import useSWRMutation from 'swr/mutation';
import { apiJson } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';

/** POST /api/api-keys: creates a key and answers it in full, once. */
export function createApiKey(input: CreateApiKeyRequest): Promise<CreatedApiKeyView> {
  return apiJson<CreatedApiKeyView>('POST', '/api/api-keys', input);
}

export function useCreateApiKey() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    'POST /api/api-keys',
    (_key: string, { arg }: { arg: CreateApiKeyRequest }) => createApiKey(arg),
    { onSuccess: () => void mutate(swrKeys.apiKeys) },
  );
}
