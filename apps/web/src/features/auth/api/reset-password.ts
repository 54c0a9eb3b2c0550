import useSWRMutation from 'swr/mutation';
import { apiJson } from '../../../lib/api-client';
import type { MessageResponse } from './types';

export interface ResetPasswordInput {
  token: string;
  password: string;
}

/** POST /api/reset-password: sets a new password with the emailed token. */
export function resetPassword(input: ResetPasswordInput): Promise<MessageResponse> {
  return apiJson<MessageResponse>('POST', '/api/reset-password', input);
}

export function useResetPassword() {
  return useSWRMutation('/api/reset-password', (_key: string, { arg }: { arg: ResetPasswordInput }) =>
    resetPassword(arg),
  );
}
