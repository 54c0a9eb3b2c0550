import { DataSource } from 'typeorm';
import { buildDataSourceOptions, ensureDatabase, MIGRATIONS } from '@csv-mapper/db';
import { Teams1721000000000 } from '../src/migrations/1721000000000-teams';

// The teams migration on a database filled BEFORE it: every account gets a team it owns, and its saved
// mappings, usage (history and monthly count), API keys and webhook endpoints are the team's afterwards,
// with who made them kept. Then the triggers: a new user gets a team; a row inserted the old way lands in
// the user's team.
describe('teams migration (real Postgres, filled before it runs)', () => {
  let ds: DataSource;
  let before: typeof MIGRATIONS;
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `${url.pathname.slice(1)}_premig`;

  beforeAll(async () => {
    const admin = new DataSource({ type: 'postgres', url: process.env.DATABASE_URL as string });
    await admin.initialize();
    await admin.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}"`);
    await admin.destroy();
    await ensureDatabase(url.toString());
    before = MIGRATIONS.slice(0, MIGRATIONS.indexOf(Teams1721000000000));
    // Everything up to the teams migration; it and any later ones run once the database is filled.
    expect(before.length).toBeGreaterThan(0);
    ds = new DataSource({ ...buildDataSourceOptions(url.toString(), { poolSize: 2 }), migrations: before });
    await ds.initialize();
    await ds.runMigrations({ transaction: 'each' });
  });
  afterAll(async () => {
    await ds?.destroy();
    const admin = new DataSource({ type: 'postgres', url: process.env.DATABASE_URL as string });
    await admin.initialize();
    await admin.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}"`);
    await admin.destroy();
  });

  it('gives every existing account a team it owns and moves its data there, keeping all of it', async () => {
    const users = (await ds.query(
      `INSERT INTO users (username, email, password, plan, monthly_rows_used, last_reset_at)
       VALUES ('alice', 'alice@example.com', 'h', 'business', 1234, now()),
              ('bob', 'bob@example.com', 'h', 'free', 0, NULL)
       RETURNING id, username`,
    )) as Array<{ id: string; username: string }>;
    const alice = users.find((u) => u.username === 'alice')!.id;
    const bob = users.find((u) => u.username === 'bob')!.id;
    await ds.query(
      `INSERT INTO saved_mappings (user_id, name, template_headers, data_headers, mappings)
       VALUES ($1, 'Bank', '["Date"]', '["Tag"]', '[{"templateColumn":"Date","dataColumn":"Tag"}]'),
              ($2, 'Shop', '["Sku"]', '["Code"]', '[{"templateColumn":"Sku","dataColumn":"Code"}]')`,
      [alice, bob],
    );
    await ds.query(
      `INSERT INTO usage_history (user_id, rows_processed, file_size_bytes, filename, job_id)
       VALUES ($1, 1000, 2048, 'a.csv', 'csv-jobs:abc'), ($1, 234, 512, 'b.csv', NULL), ($2, 5, 10, 'c.csv', NULL)`,
      [alice, bob],
    );
    await ds.query(
      `INSERT INTO api_keys (user_id, name, prefix, key_hash) VALUES ($1, 'Nightly', 'csvm_ab', repeat('a', 64))`,
      [alice],
    );
    await ds.query(
      `INSERT INTO webhook_endpoints (user_id, url, secret) VALUES ($1, 'https://h.example/x', 's')`,
      [alice],
    );

    const extra = new DataSource(buildDataSourceOptions(url.toString(), { poolSize: 2 }));
    await extra.initialize();
    try {
      const ran = await extra.runMigrations({ transaction: 'each' });
      expect(ran.map((m) => m.name)).toEqual(
        MIGRATIONS.slice(before.length).map((M) => (new M() as { name: string }).name),
      );
      expect(ran[0].name).toBe('Teams1721000000000');
    } finally {
      await extra.destroy();
    }

    expect(await ds.query(`SELECT id, owner_id FROM teams ORDER BY owner_id`)).toEqual(
      [alice, bob].sort().map((id) => ({ id, owner_id: id })),
    );
    expect(await ds.query(`SELECT user_id, team_id, role FROM team_memberships ORDER BY user_id`)).toEqual(
      [alice, bob].sort().map((id) => ({ user_id: id, team_id: id, role: 'owner' })),
    );

    // Every row kept, now the team's, with who made or ran it.
    for (const table of ['saved_mappings', 'usage_history', 'api_keys', 'webhook_endpoints']) {
      const rows = (await ds.query(`SELECT user_id, team_id FROM ${table}`)) as Array<{
        user_id: string;
        team_id: string;
      }>;
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r.team_id).toBe(r.user_id);
    }
    expect(Number((await ds.query(`SELECT count(*) AS n FROM saved_mappings`))[0].n)).toBe(2);
    expect(
      await ds.query(
        `SELECT filename, rows_processed, job_id FROM usage_history WHERE team_id = $1 ORDER BY filename`,
        [alice],
      ),
    ).toEqual([
      { filename: 'a.csv', rows_processed: 1000, job_id: 'csv-jobs:abc' },
      { filename: 'b.csv', rows_processed: 234, job_id: null },
    ]);
    // The month's count is the team's (kept on its owner's row, the team's id).
    expect(await ds.query(`SELECT monthly_rows_used FROM users WHERE id = $1`, [alice])).toEqual([
      { monthly_rows_used: 1234 },
    ]);
  });

  it('gives a user created afterwards a team, and files a row inserted with only user_id under their team', async () => {
    const [carol] = (await ds.query(
      `INSERT INTO users (username, email, password) VALUES ('carol', 'carol@example.com', 'h') RETURNING id`,
    )) as Array<{ id: string }>;
    expect(
      await ds.query(`SELECT role, team_id FROM team_memberships WHERE user_id = $1`, [carol.id]),
    ).toEqual([{ role: 'owner', team_id: carol.id }]);
    const [alice] = (await ds.query(`SELECT id FROM users WHERE username = 'alice'`)) as Array<{
      id: string;
    }>;
    await ds.query(`UPDATE team_memberships SET team_id = $2, role = 'member' WHERE user_id = $1`, [
      carol.id,
      alice.id,
    ]);
    const [row] = (await ds.query(
      `INSERT INTO saved_mappings (user_id, name, template_headers, data_headers, mappings)
       VALUES ($1, 'Joined', '["A"]', '["B"]', '[]') RETURNING team_id`,
      [carol.id],
    )) as Array<{ team_id: string }>;
    expect(row.team_id).toBe(alice.id);

    // A member's deleted account leaves the team's mapping (creator forgotten); the owner's takes the team.
    await ds.query(`DELETE FROM users WHERE id = $1`, [carol.id]);
    expect(await ds.query(`SELECT user_id, team_id FROM saved_mappings WHERE name = 'Joined'`)).toEqual([
      { user_id: null, team_id: alice.id },
    ]);
    await ds.query(`DELETE FROM users WHERE id = $1`, [alice.id]);
    for (const table of ['saved_mappings', 'usage_history', 'api_keys', 'webhook_endpoints']) {
      expect(await ds.query(`SELECT 1 FROM ${table} WHERE team_id = $1`, [alice.id])).toEqual([]);
    }
  });

  it('can be undone', async () => {
    // As TypeORM reverts: the migrations after it first (newest first; later tables reference teams),
    // then the teams migration itself, then all of them again.
    const later = MIGRATIONS.slice(before.length + 1).map((M) => new M());
    const migration = new Teams1721000000000();
    const q = ds.createQueryRunner();
    try {
      for (const m of [...later].reverse()) await m.down(q);
      await migration.down(q);
      const cols = (await q.query(
        `SELECT table_name FROM information_schema.columns WHERE column_name = 'team_id'`,
      )) as unknown[];
      expect(cols).toEqual([]);
      await migration.up(q);
      for (const m of later) await m.up(q);
      expect(Number((await q.query(`SELECT count(*) AS n FROM teams`))[0].n)).toBeGreaterThan(0);
    } finally {
      await q.release();
    }
  });
});
