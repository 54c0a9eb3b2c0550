// Entry point for the TypeORM CLI (`npx typeorm -d dist/libs/db/src/data-source.js migration:show`).
// The apps build their data source from their own validated config with buildDataSourceOptions.
import { DataSource } from 'typeorm';
import { buildDataSourceOptions, DEFAULT_DATABASE_URL } from './data-source-options';

export default new DataSource(buildDataSourceOptions(process.env.DATABASE_URL || DEFAULT_DATABASE_URL));
