import { MigrationInterface, QueryRunner } from 'typeorm';

/** Saved mappings keep how their result is written and how their data file is read (recipes, issue 20). */
export class MappingOutputOptions1720000000000 implements MigrationInterface {
  name = 'MappingOutputOptions1720000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE saved_mappings ADD COLUMN output_options jsonb, ADD COLUMN reading_options jsonb`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE saved_mappings DROP COLUMN reading_options, DROP COLUMN output_options`);
  }
}
