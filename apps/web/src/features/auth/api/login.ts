import type { LoginRequest, SessionUserView } from '@csv-mapper/contracts';
import useSWRMutation from 'swr/mutation';
import { apiJson } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';

/** POST /api/login: starts a session and answers the user. */
export function login(input: LoginRequest): Promise<SessionUserView> {
  return apiJson<SessionUserView>('POST', '/api/login', input);
}

/** Logs in and stores the answered user as the session user. */
export function useLogin() {
  return useSWRMutation(
    swrKeys.user,
    (_key: readonly string[], { arg }: { arg: LoginRequest }) => login(arg),
    {
      populateCache: true,
      revalidate: false,
    },
  );
}
