import useSWRMutation from 'swr/mutation';
import { apiJson } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';
import type { SessionUser } from './types';

export interface LoginInput {
  /** Email (any case) or username. */
  identifier: string;
  password: string;
}

/** POST /api/login: starts a session and answers the user. */
export function login(input: LoginInput): Promise<SessionUser> {
  return apiJson<SessionUser>('POST', '/api/login', input);
}

/** Logs in and stores the answered user as the session user. */
export function useLogin() {
  return useSWRMutation(swrKeys.user, (_key: readonly string[], { arg }: { arg: LoginInput }) => login(arg), {
    populateCache: true,
    revalidate: false,
  });
}
