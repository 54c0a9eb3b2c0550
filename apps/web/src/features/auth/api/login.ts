import type { LoginRequest, SessionUserView } from '@csv-mapper/contracts';
import useSWRMutation from 'swr/mutation';
import { apiJson } from '../../../lib/api-client';
import { forgetFrameHint } from '../../../lib/frame-ids';
import { swrKeys } from '../../../lib/swr-keys';

/** POST /api/login: starts a session and answers the user. */
export function login(input: LoginRequest): Promise<SessionUserView> {
  return apiJson<SessionUserView>('POST', '/api/login', input);
}

/** Logs in and stores the answered user as the session user. */
export function useLogin() {
  return useSWRMutation(
    swrKeys.user,
    async (_key: readonly string[], { arg }: { arg: LoginRequest }) => {
      const user = await login(arg);
      // A new session: the dashboard frame's greeting and plan were whoever signed in here before.
      forgetFrameHint();
      return user;
    },
    {
      populateCache: true,
      revalidate: false,
    },
  );
}
