import type { DataSource } from 'typeorm';
import { isPaidPlan, type ProviderSubscription, type SubscriptionSource } from './billing-provider';

/** A row of the simulated provider's own subscription table (libs/db migration 1716000000000). */
export interface SimSubscriptionRow {
  id: string;
  user_id: string;
  customer_id: string;
  plan: string;
  status: string;
  current_period_start: Date;
  current_period_end: Date;
  cancel_at_period_end: boolean;
  pending_plan: string | null;
  created_at: Date;
}

export const secs = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * The simulated provider's subscriptions as the provider reports them. They live in Postgres, so the
 * worker reads the same state the api's simulated provider writes.
 */
export class SimulatedSubscriptions implements SubscriptionSource {
  readonly kind = 'simulated' as const;

  constructor(private readonly db: DataSource) {}

  async row(id: string): Promise<SimSubscriptionRow | null> {
    const [row] = await this.db.query(`SELECT * FROM sim_subscriptions WHERE id = $1`, [id]);
    return (row as SimSubscriptionRow | undefined) ?? null;
  }

  async retrieveSubscription(id: string): Promise<ProviderSubscription | null> {
    const row = await this.row(id);
    return row ? toProviderSubscription(row) : null;
  }
}

export function toProviderSubscription(r: SimSubscriptionRow): ProviderSubscription {
  return {
    id: r.id,
    customerId: r.customer_id,
    userId: r.user_id,
    plan: isPaidPlan(r.plan) ? r.plan : null,
    status: r.status,
    cancelAtPeriodEnd: r.cancel_at_period_end,
    cancelAt: r.cancel_at_period_end ? secs(r.current_period_end) : null,
    currentPeriodEnd: secs(r.current_period_end),
    pendingPlan: isPaidPlan(r.pending_plan) ? r.pending_plan : null,
  };
}
