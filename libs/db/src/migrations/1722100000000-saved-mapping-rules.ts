import { MigrationInterface, QueryRunner } from 'typeorm';

/** Template column rules (issue 22) are saved with a mapping; null for mappings saved without rules. */
export class SavedMappingRules1722100000000 implements MigrationInterface {
  name = 'SavedMappingRules1722100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE saved_mappings ADD COLUMN template_rules jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE saved_mappings DROP COLUMN template_rules`);
  }
}
