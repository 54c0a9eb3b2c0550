import { useSWRConfig } from 'swr';
import useSWRMutation from 'swr/mutation';
import { apiJson } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';
import type { CreatedApiKey } from './types';

export interface CreateApiKeyInput {
  name: string;
}

/** POST /api/api-keys: creates a key and answers it in full, once. */
export function createApiKey(input: CreateApiKeyInput): Promise<CreatedApiKey> {
  return apiJson<CreatedApiKey>('POST', '/api/api-keys', input);
}

export function useCreateApiKey() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    'POST /api/api-keys',
    (_key: string, { arg }: { arg: CreateApiKeyInput }) => createApiKey(arg),
    { onSuccess: () => void mutate(swrKeys.apiKeys) },
  );
}
