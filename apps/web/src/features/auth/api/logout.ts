import type { MessageResponse } from '@csv-mapper/contracts';
import { useSWRConfig } from 'swr';
import useSWRMutation from 'swr/mutation';
import { forgetFrameHint } from '../../../lib/frame-ids';
import { apiJson } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';

/** POST /api/logout: ends the session. */
export function logout(): Promise<MessageResponse> {
  return apiJson<MessageResponse>('POST', '/api/logout');
}

/** Logs out, then forgets every cached answer (and the dashboard frame's hint) and sets the session user to null (spec §4). */
export function useLogout() {
  const { mutate } = useSWRConfig();
  return useSWRMutation('/api/logout', () => logout(), {
    onSuccess: async () => {
      // The dashboard frame's greeting and plan are this user's: not for whoever signs in next.
      forgetFrameHint();
      await mutate(() => true, undefined, { revalidate: false });
      await mutate(swrKeys.user, null, { revalidate: false });
    },
  });
}
