import { MigrationInterface, QueryRunner } from 'typeorm';

/** Every table of ARCHITECTURE §3 with the spec's §3 fields and defaults. */
export class InitialSchema1700000000000 implements MigrationInterface {
  name = 'InitialSchema1700000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        username varchar(64) NOT NULL,
        email varchar(254) NOT NULL,
        password varchar(255) NOT NULL,
        first_name varchar(100),
        last_name varchar(100),
        plan varchar(20) NOT NULL DEFAULT 'free',
        plan_started_at timestamptz,
        plan_expires_at timestamptz,
        billing_customer_id varchar(255),
        subscription_id varchar(255),
        subscription_status varchar(40),
        max_file_size integer NOT NULL DEFAULT 1048576,
        max_saved_mappings integer NOT NULL DEFAULT 1,
        monthly_rows_used integer NOT NULL DEFAULT 0 CHECK (monthly_rows_used >= 0),
        last_reset_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX "UQ_users_username" ON users (username)`);
    await q.query(`CREATE UNIQUE INDEX "UQ_users_email_lower" ON users (lower(email))`);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_users_subscription" ON users (subscription_id) WHERE subscription_id IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE sessions (
        sid varchar NOT NULL PRIMARY KEY,
        sess json NOT NULL,
        expire timestamp(6) NOT NULL
      )`);
    await q.query(`CREATE INDEX "IDX_sessions_expire" ON sessions (expire)`);

    await q.query(`
      CREATE TABLE usage_history (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        rows_processed integer NOT NULL,
        file_size_bytes bigint NOT NULL DEFAULT 0,
        filename varchar(255) NOT NULL,
        job_id varchar(200) UNIQUE,
        processed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "IDX_usage_history_user" ON usage_history (user_id, processed_at DESC)`);

    await q.query(`
      CREATE TABLE password_reset_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token varchar(64) NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "IDX_password_reset_tokens_user" ON password_reset_tokens (user_id)`);

    await q.query(`
      CREATE TABLE saved_mappings (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name varchar(200) NOT NULL CHECK (length(btrim(name)) > 0),
        description text,
        template_headers jsonb NOT NULL,
        data_headers jsonb NOT NULL,
        mappings jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "IDX_saved_mappings_user" ON saved_mappings (user_id, created_at)`);

    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        prefix varchar(32) NOT NULL,
        key_hash varchar(64) NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX "IDX_api_keys_user" ON api_keys (user_id)`);

    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        url varchar(2048) NOT NULL,
        secret varchar(100) NOT NULL,
        events jsonb NOT NULL DEFAULT '[]'::jsonb,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason varchar(255),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "IDX_webhook_endpoints_user" ON webhook_endpoints (user_id)`);

    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        event varchar(50) NOT NULL,
        message_id varchar(100) NOT NULL,
        job_id varchar(200),
        attempt integer NOT NULL,
        status_code integer,
        duration_ms integer,
        error varchar(500),
        next_retry_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX "IDX_webhook_deliveries_endpoint" ON webhook_deliveries (endpoint_id, created_at DESC)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'webhook_deliveries',
      'webhook_endpoints',
      'api_keys',
      'saved_mappings',
      'password_reset_tokens',
      'usage_history',
      'sessions',
      'users',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}
