import type { DataSource } from 'typeorm';
import { UserEntity } from '@csv-mapper/db';
import {
  eventRefs,
  HANDLED_EVENTS,
  LIVE_STATUSES,
  type SubscriptionSource,
  type VerifiedEvent,
} from './billing-provider';
import type { PlanState } from './plan-state';

// The provider's events as we keep them (billing_events): stored once by the api after the signature
// holds, applied by the worker from the billing queue, and a daily comparison of every open
// subscription with the provider that repairs what a lost or failed event left behind.

/**
 * Stores a verified event. Answers whether it was new and whether it still waits to be applied (a
 * duplicate whose first delivery was stored but never queued must be queued again).
 */
export async function recordBillingEvent(
  db: DataSource,
  event: VerifiedEvent,
  payload: unknown,
): Promise<{ inserted: boolean; pending: boolean }> {
  const inserted: unknown[] = await db.query(
    `INSERT INTO billing_events (id, type, payload) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [event.id, event.type, JSON.stringify(payload)],
  );
  if (inserted.length > 0) return { inserted: true, pending: true };
  const [row] = (await db.query(`SELECT processed_at FROM billing_events WHERE id = $1`, [event.id])) as {
    processed_at: Date | null;
  }[];
  return { inserted: false, pending: !!row && row.processed_at === null };
}

export type ApplyOutcome = 'applied' | 'already-applied' | 'unknown-event';

/** The user's subscription fields that reconciliation compares (period end in epoch seconds). */
type Snapshot = Record<
  'plan' | 'subscriptionId' | 'status' | 'periodEnd' | 'cancelAtPeriodEnd' | 'pendingPlan',
  unknown
>;

function snapshot(u: UserEntity): Snapshot {
  return {
    plan: u.plan,
    subscriptionId: u.subscriptionId,
    status: u.subscriptionStatus,
    periodEnd: u.subscriptionCurrentPeriodEnd
      ? Math.floor(u.subscriptionCurrentPeriodEnd.getTime() / 1000)
      : null,
    cancelAtPeriodEnd: u.subscriptionCancelAtPeriodEnd,
    pendingPlan: u.pendingPlan,
  };
}

export interface Drift {
  userId: string;
  subscriptionId: string;
  /** field → [ours before, ours now (the provider's)] */
  changes: Record<string, [unknown, unknown]>;
}

/** Statuses whose subscription reconciliation reads back (ended ones were cleared from the user). */
const OPEN_STATUSES = [...LIVE_STATUSES, 'incomplete'];

export class BillingEventApplier {
  constructor(
    private readonly db: DataSource,
    private readonly source: SubscriptionSource,
    private readonly planState: PlanState,
  ) {}

  /**
   * Applies a stored event: the subscription it names is read back from the provider (the provider's
   * state now wins whatever order events came in). Safe to run twice: an applied event is skipped. A
   * failure is recorded on the row (attempts, last_error) and thrown, so the queue retries.
   */
  async apply(eventId: string): Promise<ApplyOutcome> {
    // (TypeORM answers an UPDATE on Postgres with [rows, affected].)
    const [[row]] = (await this.db.query(
      `UPDATE billing_events SET attempts = attempts + 1 WHERE id = $1 AND processed_at IS NULL
        RETURNING type, payload`,
      [eventId],
    )) as [{ type: string; payload: unknown }[], number];
    if (!row) {
      const known: unknown[] = await this.db.query(`SELECT 1 FROM billing_events WHERE id = $1`, [eventId]);
      return known.length > 0 ? 'already-applied' : 'unknown-event';
    }
    try {
      const refs = row.payload
        ? eventRefs(row.payload as Parameters<typeof eventRefs>[0])
        : { subscriptionId: null };
      if (HANDLED_EVENTS.has(row.type) && refs.subscriptionId) {
        const sub = await this.source.retrieveSubscription(refs.subscriptionId);
        if (sub) await this.planState.apply(sub);
      }
      await this.db.query(
        `UPDATE billing_events SET processed_at = now(), last_error = NULL WHERE id = $1 AND processed_at IS NULL`,
        [eventId],
      );
      return 'applied';
    } catch (err) {
      await this.db
        .query(`UPDATE billing_events SET last_error = $2 WHERE id = $1`, [
          eventId,
          String((err as Error)?.message ?? err).slice(0, 2000),
        ])
        .catch(() => undefined);
      throw err;
    }
  }

  /**
   * Compares every open subscription we hold with the provider and brings the user in line with it.
   * Answers what changed, per user; a subscription the provider no longer has ends (back to Free).
   */
  async reconcile(): Promise<Drift[]> {
    const users = await this.db.getRepository(UserEntity).find({
      where: OPEN_STATUSES.map((status) => ({ subscriptionStatus: status })),
      order: { id: 'ASC' },
    });
    const drifts: Drift[] = [];
    for (const user of users) {
      const subscriptionId = user.subscriptionId as string;
      if (!subscriptionId) continue;
      const before = snapshot(user);
      const sub = await this.source.retrieveSubscription(subscriptionId);
      const after = sub ? await this.planState.apply(sub) : await this.planState.clear(user, true);
      if (!after) continue;
      const now = snapshot(after);
      const changes: Record<string, [unknown, unknown]> = {};
      for (const k of Object.keys(before) as (keyof Snapshot)[]) {
        if (before[k] !== now[k]) changes[k] = [before[k], now[k]];
      }
      if (Object.keys(changes).length > 0) drifts.push({ userId: user.id, subscriptionId, changes });
    }
    return drifts;
  }
}
