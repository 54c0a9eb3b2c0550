import type { CompleteCheckoutRequest, RedirectResponse, SimulatedSessionView } from '@csv-mapper/contracts';
import useSWR from 'swr';
import useSWRMutation from 'swr/mutation';
import { apiJson, getQueryFn } from '../../../lib/api-client';

// The simulated provider's checkout session (development and tests only).

const sessionPath = (id: string) => `/api/billing/simulated/sessions/${encodeURIComponent(id)}`;

/** GET /api/billing/simulated/sessions/:id — the signed-in owner's session, else 404. */
export function useSimulatedSession(id: string | undefined) {
  return useSWR<SimulatedSessionView | null>(
    id ? [sessionPath(id)] : null,
    getQueryFn<SimulatedSessionView>({ on401: 'throw' }),
    { revalidateOnMount: true, shouldRetryOnError: false },
  );
}

/** POST …/complete { outcome } → where the provider sends the browser next. */
export function useCompleteSimulatedSession(id: string) {
  return useSWRMutation(
    `${sessionPath(id)}/complete`,
    (_k: string, { arg }: { arg: CompleteCheckoutRequest['outcome'] }) =>
      apiJson<RedirectResponse>('POST', `${sessionPath(id)}/complete`, { outcome: arg }),
  );
}
