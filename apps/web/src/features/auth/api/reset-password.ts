import type { MessageResponse, ResetPasswordRequest } from '@csv-mapper/contracts';
import useSWRMutation from 'swr/mutation';
import { apiJson } from '../../../lib/api-client';

/** POST /api/reset-password: sets a new password with the emailed token. */
export function resetPassword(input: ResetPasswordRequest): Promise<MessageResponse> {
  return apiJson<MessageResponse>('POST', '/api/reset-password', input);
}

export function useResetPassword() {
  return useSWRMutation('/api/reset-password', (_key: string, { arg }: { arg: ResetPasswordRequest }) =>
    resetPassword(arg),
  );
}
