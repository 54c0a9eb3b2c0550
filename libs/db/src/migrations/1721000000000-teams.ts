import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Teams: every account owns a team whose id is the account's own id (so the Redis-held records of existing
 * jobs and files, keyed by the owner's id, already name the team). A user belongs to exactly one team at a
 * time (team_memberships is keyed by user): their own as 'owner', or another as 'member' after accepting an
 * invitation (their own team then waits, untouched, until they leave). Saved mappings, usage, API keys and
 * webhook endpoints move to the team; `user_id` stays on them as who created or ran them. The team's
 * monthly count stays on the owner's users row (the subscriber's row that also holds the plan).
 *
 * Two triggers keep code that predates teams correct: a new user gets their team, and a row inserted with
 * only `user_id` lands in that user's current team.
 */
export class Teams1721000000000 implements MigrationInterface {
  name = 'Teams1721000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE teams (
        id uuid PRIMARY KEY,
        owner_id uuid NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE team_memberships (
        user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        role varchar(10) NOT NULL CHECK (role IN ('owner', 'member')),
        joined_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((role = 'owner') = (team_id = user_id))
      )`);
    await q.query(`CREATE INDEX "IDX_team_memberships_team" ON team_memberships (team_id, joined_at)`);
    await q.query(`
      CREATE TABLE team_invitations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        team_id uuid NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
        email varchar(254) NOT NULL,
        token_hash varchar(64) NOT NULL UNIQUE,
        invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        accepted_by uuid REFERENCES users(id) ON DELETE SET NULL,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "IDX_team_invitations_team" ON team_invitations (team_id)`);

    // Every existing account: a team it owns.
    await q.query(`INSERT INTO teams (id, owner_id, created_at) SELECT id, id, created_at FROM users`);
    await q.query(
      `INSERT INTO team_memberships (user_id, team_id, role, joined_at) SELECT id, id, 'owner', created_at FROM users`,
    );

    // Their rows move to that team; who made them stays in user_id.
    for (const table of ['saved_mappings', 'usage_history', 'api_keys', 'webhook_endpoints']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN team_id uuid REFERENCES teams(id) ON DELETE CASCADE`);
      await q.query(`UPDATE ${table} SET team_id = user_id`);
      await q.query(`ALTER TABLE ${table} ALTER COLUMN team_id SET NOT NULL`);
      await q.query(`CREATE INDEX "IDX_${table}_team" ON ${table} (team_id)`);
    }
    // Team data outlives the member who made it (a member's deleted account leaves the team's mappings,
    // endpoints and usage history); a member's API keys go with the member.
    for (const table of ['saved_mappings', 'usage_history', 'webhook_endpoints']) {
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_user_id_fkey`);
      await q.query(`ALTER TABLE ${table} ALTER COLUMN user_id DROP NOT NULL`);
      await q.query(
        `ALTER TABLE ${table} ADD CONSTRAINT ${table}_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE SET NULL`,
      );
    }

    await q.query(`
      CREATE FUNCTION csvm_user_team() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO teams (id, owner_id) VALUES (NEW.id, NEW.id);
        INSERT INTO team_memberships (user_id, team_id, role) VALUES (NEW.id, NEW.id, 'owner');
        RETURN NEW;
      END $$`);
    await q.query(
      `CREATE TRIGGER "TRG_users_team" AFTER INSERT ON users FOR EACH ROW EXECUTE FUNCTION csvm_user_team()`,
    );
    await q.query(`
      CREATE FUNCTION csvm_default_team() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.team_id IS NULL THEN
          NEW.team_id := COALESCE((SELECT team_id FROM team_memberships WHERE user_id = NEW.user_id), NEW.user_id);
        END IF;
        RETURN NEW;
      END $$`);
    for (const table of ['saved_mappings', 'usage_history', 'api_keys', 'webhook_endpoints']) {
      await q.query(
        `CREATE TRIGGER "TRG_${table}_team" BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION csvm_default_team()`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['saved_mappings', 'usage_history', 'api_keys', 'webhook_endpoints']) {
      await q.query(`DROP TRIGGER "TRG_${table}_team" ON ${table}`);
    }
    await q.query(`DROP FUNCTION csvm_default_team()`);
    await q.query(`DROP TRIGGER "TRG_users_team" ON users`);
    await q.query(`DROP FUNCTION csvm_user_team()`);
    // Rows a member made for another team go back to the team's owner; rows of no known user go.
    for (const table of ['saved_mappings', 'usage_history', 'webhook_endpoints']) {
      await q.query(`UPDATE ${table} SET user_id = team_id`);
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_user_id_fkey`);
      await q.query(`ALTER TABLE ${table} ALTER COLUMN user_id SET NOT NULL`);
      await q.query(
        `ALTER TABLE ${table} ADD CONSTRAINT ${table}_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE`,
      );
    }
    await q.query(`DELETE FROM api_keys WHERE user_id <> team_id`);
    for (const table of ['saved_mappings', 'usage_history', 'api_keys', 'webhook_endpoints']) {
      await q.query(`ALTER TABLE ${table} DROP COLUMN team_id`);
    }
    await q.query(`DROP TABLE team_invitations`);
    await q.query(`DROP TABLE team_memberships`);
    await q.query(`DROP TABLE teams`);
  }
}
