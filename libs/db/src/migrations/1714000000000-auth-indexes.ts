import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Usernames are unique whatever their case (login by username ignores case), and a user's sessions can
 * be found without a scan (they are all destroyed on password reset and account deletion).
 */
export class AuthIndexes1714000000000 implements MigrationInterface {
  name = 'AuthIndexes1714000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE UNIQUE INDEX "UQ_users_username_lower" ON users (lower(username))`);
    await q.query(`CREATE INDEX "IDX_sessions_user" ON sessions ((sess->>'userId'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_sessions_user"`);
    await q.query(`DROP INDEX "UQ_users_username_lower"`);
  }
}
