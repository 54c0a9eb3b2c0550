import type { MessageResponse, PasswordResetRequest } from '@csv-mapper/contracts';
import useSWRMutation from 'swr/mutation';
import { apiJson } from '../../../lib/api-client';

/** POST /api/request-password-reset: mails a reset link if the account exists (202, same answer either way). */
export function requestPasswordReset(input: PasswordResetRequest): Promise<MessageResponse> {
  return apiJson<MessageResponse>('POST', '/api/request-password-reset', input);
}

export function useRequestPasswordReset() {
  return useSWRMutation(
    '/api/request-password-reset',
    (_key: string, { arg }: { arg: PasswordResetRequest }) => requestPasswordReset(arg),
  );
}
