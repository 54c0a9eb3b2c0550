import type { DeleteAccountRequest, MessageResponse } from '@csv-mapper/contracts';
import { useSWRConfig } from 'swr';
import useSWRMutation from 'swr/mutation';
import { apiJson } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';

/** POST /api/user/delete-account: deletes the account after checking the password. */
export function deleteAccount(input: DeleteAccountRequest): Promise<MessageResponse> {
  return apiJson<MessageResponse>('POST', '/api/user/delete-account', input);
}

/** Deletes the account, then forgets every cached answer and the session user. */
export function useDeleteAccount() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    '/api/user/delete-account',
    (_key: string, { arg }: { arg: DeleteAccountRequest }) => deleteAccount(arg),
    {
      onSuccess: async () => {
        await mutate(() => true, undefined, { revalidate: false });
        await mutate(swrKeys.user, null, { revalidate: false });
      },
    },
  );
}
