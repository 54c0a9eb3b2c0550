import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Provider events are applied from a queue: the api stores the verified event and answers at once, the
 * worker applies it with retries. The row keeps the event, when it was applied, how many attempts it took
 * and the last error, so a stuck event can be found with SQL.
 */
export class BillingEventQueue1719000000000 implements MigrationInterface {
  name = 'BillingEventQueue1719000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE billing_events
        ADD COLUMN payload jsonb,
        ADD COLUMN processed_at timestamptz,
        ADD COLUMN attempts int NOT NULL DEFAULT 0,
        ADD COLUMN last_error text`);
    // Events stored before this migration were applied when they arrived.
    await q.query(`UPDATE billing_events SET processed_at = received_at, attempts = 1`);
    await q.query(
      `CREATE INDEX "IDX_billing_events_unprocessed" ON billing_events (received_at) WHERE processed_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_billing_events_unprocessed"`);
    await q.query(`
      ALTER TABLE billing_events
        DROP COLUMN last_error,
        DROP COLUMN attempts,
        DROP COLUMN processed_at,
        DROP COLUMN payload`);
  }
}
