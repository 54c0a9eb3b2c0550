import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Billing: the subscription's period and cancellation on users (the profile reads them without asking the
 * provider), processed provider events (a unique id makes a replayed or concurrent duplicate do nothing),
 * and the simulated provider's own state (its subscriptions, checkout sessions and clock), so development
 * and tests walk the same state machine as Stripe across restarts and several api processes.
 */
export class Billing1716000000000 implements MigrationInterface {
  name = 'Billing1716000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE users
        ADD COLUMN subscription_cancel_at_period_end boolean NOT NULL DEFAULT false,
        ADD COLUMN subscription_cancel_at timestamptz,
        ADD COLUMN subscription_current_period_end timestamptz,
        ADD COLUMN pending_plan varchar(20),
        ADD COLUMN pending_plan_at timestamptz`);
    await q.query(`CREATE UNIQUE INDEX "UQ_users_billing_customer" ON users (billing_customer_id)`);
    await q.query(`
      CREATE TABLE billing_events (
        id varchar(255) PRIMARY KEY,
        type varchar(100) NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE sim_subscriptions (
        id varchar(64) PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        customer_id varchar(64) NOT NULL,
        plan varchar(20) NOT NULL,
        status varchar(40) NOT NULL,
        current_period_start timestamptz NOT NULL,
        current_period_end timestamptz NOT NULL,
        cancel_at_period_end boolean NOT NULL DEFAULT false,
        pending_plan varchar(20),
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX "IDX_sim_subscriptions_user" ON sim_subscriptions (user_id)`);
    await q.query(`
      CREATE TABLE sim_checkout_sessions (
        id varchar(64) PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        plan varchar(20) NOT NULL,
        status varchar(20) NOT NULL DEFAULT 'open',
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE TABLE sim_clock (id int PRIMARY KEY CHECK (id = 1), offset_seconds bigint NOT NULL DEFAULT 0)`,
    );
    await q.query(`INSERT INTO sim_clock (id, offset_seconds) VALUES (1, 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sim_clock`);
    await q.query(`DROP TABLE sim_checkout_sessions`);
    await q.query(`DROP TABLE sim_subscriptions`);
    await q.query(`DROP TABLE billing_events`);
    await q.query(`DROP INDEX "UQ_users_billing_customer"`);
    await q.query(`
      ALTER TABLE users
        DROP COLUMN pending_plan_at,
        DROP COLUMN pending_plan,
        DROP COLUMN subscription_current_period_end,
        DROP COLUMN subscription_cancel_at,
        DROP COLUMN subscription_cancel_at_period_end`);
  }
}
