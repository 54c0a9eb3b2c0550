import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook delivery log and secret rotation: each attempt keeps the event it sent (so any delivery can be
 * resent byte for byte: json keeps the text, jsonb would reorder keys), the first 1 KB of the receiver's answer and its outcome; an endpoint keeps its previous secret
 * for 24 hours after a rotation, and both sign. Attempts are trimmed by age (30 days): an index on it.
 */
export class WebhookDeliveryLog1718000000000 implements MigrationInterface {
  name = 'WebhookDeliveryLog1718000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_endpoints
        ADD COLUMN previous_secret varchar(100),
        ADD COLUMN previous_secret_expires_at timestamptz`);
    await q.query(`
      ALTER TABLE webhook_deliveries
        ADD COLUMN payload json,
        ADD COLUMN response_snippet varchar(1024),
        ADD COLUMN outcome varchar(20) NOT NULL DEFAULT 'failed'`);
    await q.query(`CREATE INDEX "IDX_webhook_deliveries_created" ON webhook_deliveries (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "IDX_webhook_deliveries_created"`);
    await q.query(`
      ALTER TABLE webhook_deliveries
        DROP COLUMN payload, DROP COLUMN response_snippet, DROP COLUMN outcome`);
    await q.query(`
      ALTER TABLE webhook_endpoints DROP COLUMN previous_secret, DROP COLUMN previous_secret_expires_at`);
  }
}
