import { useSWRConfig } from 'swr';
import useSWRMutation from 'swr/mutation';
import { apiRequest } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';

/** DELETE /api/api-keys/:id: revokes a key (204); it stops working on the next request. */
export async function revokeApiKey(id: string): Promise<void> {
  await apiRequest('DELETE', `/api/api-keys/${encodeURIComponent(id)}`);
}

export function useRevokeApiKey() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    'DELETE /api/api-keys',
    (_key: string, { arg }: { arg: string }) => revokeApiKey(arg),
    {
      onSuccess: () => void mutate(swrKeys.apiKeys),
    },
  );
}
