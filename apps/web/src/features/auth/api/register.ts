import type { RegisterRequest, SessionUserView } from '@csv-mapper/contracts';
import useSWRMutation from 'swr/mutation';
import { apiJson } from '../../../lib/api-client';
import { forgetFrameHint } from '../../../lib/frame-ids';
import { swrKeys } from '../../../lib/swr-keys';

/** POST /api/register: creates the account, starts a session and answers the user (201). */
export function register(input: RegisterRequest): Promise<SessionUserView> {
  return apiJson<SessionUserView>('POST', '/api/register', input);
}

/** Signs up and stores the answered user as the session user. */
export function useRegister() {
  return useSWRMutation(
    swrKeys.user,
    async (_key: readonly string[], { arg }: { arg: RegisterRequest }) => {
      const user = await register(arg);
      // A new session: the dashboard frame's greeting and plan were whoever signed in here before.
      forgetFrameHint();
      return user;
    },
    { populateCache: true, revalidate: false },
  );
}
