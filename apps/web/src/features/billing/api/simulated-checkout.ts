import useSWR from 'swr';
import useSWRMutation from 'swr/mutation';
import { apiJson, getQueryFn } from '../../../lib/api-client';
import type { CheckoutOutcome, SimulatedSession } from './types';

// The simulated provider's checkout session (development and tests only).

const sessionPath = (id: string) => `/api/billing/simulated/sessions/${encodeURIComponent(id)}`;

/** GET /api/billing/simulated/sessions/:id — the signed-in owner's session, else 404. */
export function useSimulatedSession(id: string | undefined) {
  return useSWR<SimulatedSession | null>(
    id ? [sessionPath(id)] : null,
    getQueryFn<SimulatedSession>({ on401: 'throw' }),
    { revalidateOnMount: true, shouldRetryOnError: false },
  );
}

/** POST …/complete { outcome } → where the provider sends the browser next. */
export function useCompleteSimulatedSession(id: string) {
  return useSWRMutation(`${sessionPath(id)}/complete`, (_k: string, { arg }: { arg: CheckoutOutcome }) =>
    apiJson<{ redirectUrl: string }>('POST', `${sessionPath(id)}/complete`, { outcome: arg }),
  );
}
