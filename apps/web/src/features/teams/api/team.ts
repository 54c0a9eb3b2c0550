import type {
  AcceptedInvitationView,
  AcceptInvitationRequest,
  InviteMemberRequest,
  MessageResponse,
  TeamInvitationView,
  TeamUsageView,
  TeamView,
} from '@csv-mapper/contracts';
import useSWR, { useSWRConfig } from 'swr';
import useSWRMutation from 'swr/mutation';
import { apiJson, apiRequest, getQueryFn } from '../../../lib/api-client';
import { swrKeys } from '../../../lib/swr-keys';

/** GET /api/team: members, pending invitations (account holder), seats used and allowed. */
export const getTeam = getQueryFn<TeamView>({ on401: 'throw' });

export function useTeam({ enabled = true }: { enabled?: boolean } = {}) {
  return useSWR<TeamView | null>(enabled ? swrKeys.team : null, getTeam, {
    revalidateIfStale: true,
    revalidateOnMount: true,
  });
}

/** GET /api/team/usage: the team's 50 most recent runs, newest first, with who ran each. */
export const getTeamUsage = getQueryFn<TeamUsageView>({ on401: 'throw' });

export function useTeamUsage() {
  return useSWR<TeamUsageView | null>(swrKeys.teamUsage, getTeamUsage, {
    revalidateIfStale: true,
    revalidateOnMount: true,
  });
}

/** After a change of members every team-scoped answer may differ: refetch them all. */
function useRefreshAll() {
  const { mutate } = useSWRConfig();
  return () => void mutate(() => true);
}

/** POST /api/team/invitations: mails a single-use link valid 7 days. */
export function useInviteMember() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    'POST /api/team/invitations',
    (_key: string, { arg }: { arg: InviteMemberRequest }) =>
      apiJson<TeamInvitationView>('POST', '/api/team/invitations', arg),
    { onSuccess: () => void mutate(swrKeys.team) },
  );
}

/** DELETE /api/team/invitations/:id */
export function useRevokeInvitation() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    'DELETE /api/team/invitations',
    async (_key: string, { arg }: { arg: string }) => {
      await apiRequest('DELETE', `/api/team/invitations/${encodeURIComponent(arg)}`);
    },
    { onSuccess: () => void mutate(swrKeys.team) },
  );
}

/** DELETE /api/team/members/:userId: the member's access ends at once. */
export function useRemoveMember() {
  const { mutate } = useSWRConfig();
  return useSWRMutation(
    'DELETE /api/team/members',
    async (_key: string, { arg }: { arg: string }) => {
      await apiRequest('DELETE', `/api/team/members/${encodeURIComponent(arg)}`);
    },
    { onSuccess: () => void mutate(() => true) },
  );
}

/** POST /api/team/leave: back to the member's own account. */
export function useLeaveTeam() {
  const refresh = useRefreshAll();
  return useSWRMutation(
    'POST /api/team/leave',
    () => apiJson<MessageResponse>('POST', '/api/team/leave', {}),
    { onSuccess: refresh },
  );
}

/** POST /api/team/invitations/accept { token } */
export function useAcceptInvitation() {
  const refresh = useRefreshAll();
  return useSWRMutation(
    'POST /api/team/invitations/accept',
    (_key: string, { arg }: { arg: AcceptInvitationRequest }) =>
      apiJson<AcceptedInvitationView>('POST', '/api/team/invitations/accept', arg),
    { onSuccess: refresh },
  );
}
