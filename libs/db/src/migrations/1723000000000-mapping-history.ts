import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Run history of saved mappings (issue 30): every run of a saved mapping (browser, API, bulk) is a
 * `mapping_runs` row (who, when, rows, control totals, the job and its result while kept), and the rows it
 * wrote are remembered as keyed fingerprints — the first 8 bytes of HMAC-SHA-256 of the row's output values
 * (or of the mapping's key columns) under a per-team secret, so no cell value is stored. Fingerprints are
 * kept packed: one `mapping_fingerprints` row holds a run's fingerprints of one bucket (the first 6 bits of
 * the fingerprint), 8 bytes each, so a mapping's history loads in a few dozen reads. Everything goes with
 * the mapping (and its team) by foreign-key cascade; the worker's hourly cleanup drops what is older than
 * HISTORY_RETENTION_DAYS.
 */
export class MappingHistory1723000000000 implements MigrationInterface {
  name = 'MappingHistory1723000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE team_history_keys (
        team_id uuid PRIMARY KEY REFERENCES teams(id) ON DELETE CASCADE,
        secret bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`ALTER TABLE saved_mappings ADD COLUMN duplicates varchar(8) NOT NULL DEFAULT 'flag'`);
    await q.query(`ALTER TABLE saved_mappings ADD COLUMN history_key_columns jsonb`);
    await q.query(`
      CREATE TABLE mapping_runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        mapping_id uuid NOT NULL REFERENCES saved_mappings(id) ON DELETE CASCADE,
        team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        user_id uuid REFERENCES users(id) ON DELETE SET NULL,
        source varchar(8) NOT NULL CHECK (source IN ('browser', 'api', 'bulk', 'cli')),
        state varchar(10) NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'completed', 'failed')),
        data_filename varchar(255),
        job_id varchar(200),
        batch_id varchar(200),
        rows_read integer NOT NULL DEFAULT 0,
        rows_written integer NOT NULL DEFAULT 0,
        rows_already_exported integer NOT NULL DEFAULT 0,
        rows_skipped integer NOT NULL DEFAULT 0,
        duplicates varchar(8) NOT NULL DEFAULT 'flag',
        control_totals jsonb,
        result_key varchar(300),
        result_expires_at timestamptz,
        error_code varchar(64),
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await q.query(`CREATE INDEX "IDX_mapping_runs_mapping" ON mapping_runs (mapping_id, created_at DESC)`);
    await q.query(`CREATE INDEX "IDX_mapping_runs_created" ON mapping_runs (created_at)`);
    await q.query(`CREATE INDEX "IDX_mapping_runs_team" ON mapping_runs (team_id)`);
    // A background job that runs again (retry, stalled worker) is one run.
    await q.query(
      `CREATE UNIQUE INDEX "UQ_mapping_runs_job" ON mapping_runs (job_id) WHERE job_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE mapping_fingerprints (
        id bigserial PRIMARY KEY,
        mapping_id uuid NOT NULL REFERENCES saved_mappings(id) ON DELETE CASCADE,
        run_id uuid NOT NULL REFERENCES mapping_runs(id) ON DELETE CASCADE,
        bucket smallint NOT NULL,
        count integer NOT NULL,
        fingerprints bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX "IDX_mapping_fingerprints_lookup" ON mapping_fingerprints (mapping_id, bucket, created_at)`,
    );
    await q.query(`CREATE INDEX "IDX_mapping_fingerprints_run" ON mapping_fingerprints (run_id)`);
    await q.query(`CREATE INDEX "IDX_mapping_fingerprints_created" ON mapping_fingerprints (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE mapping_fingerprints`);
    await q.query(`DROP TABLE mapping_runs`);
    await q.query(`ALTER TABLE saved_mappings DROP COLUMN history_key_columns`);
    await q.query(`ALTER TABLE saved_mappings DROP COLUMN duplicates`);
    await q.query(`DROP TABLE team_history_keys`);
  }
}
