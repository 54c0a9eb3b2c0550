import { loadTestEnv, newFileEnv } from './test-env';

// Runs in every integration test file before it loads: point the apps at this file's own database (a copy of
// the run's migrated one, created by file-database.ts before the file's hooks) and Redis prefix, so files
// running at the same time never see each other's rows, queues, throttle counters or locks.
const run = loadTestEnv();
const file = newFileEnv(run);
process.env.NODE_ENV = 'test';
process.env.DATABASE_URL = file.DATABASE_URL;
process.env.REDIS_URL = file.REDIS_URL;
process.env.REDIS_PREFIX = file.REDIS_PREFIX;
process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL || 'silent';
process.env.ENABLE_CRON = '0';
process.env.CSVM_TEST_FILE_DATABASE = file.DATABASE_NAME;
process.env.CSVM_TEST_TEMPLATE_DATABASE = run.DATABASE_NAME;
process.env.CSVM_TEST_ADMIN_DATABASE_URL = run.ADMIN_DATABASE_URL;
