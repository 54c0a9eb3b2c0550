import useSWRMutation from 'swr/mutation';
import { apiJson } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';
import type { SessionUser } from './types';

export interface RegisterInput {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  password: string;
}

/** POST /api/register: creates the account, starts a session and answers the user (201). */
export function register(input: RegisterInput): Promise<SessionUser> {
  return apiJson<SessionUser>('POST', '/api/register', input);
}

/** Signs up and stores the answered user as the session user. */
export function useRegister() {
  return useSWRMutation(
    swrKeys.user,
    (_key: readonly string[], { arg }: { arg: RegisterInput }) => register(arg),
    { populateCache: true, revalidate: false },
  );
}
