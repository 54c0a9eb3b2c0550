import { loadTestEnv } from './test-env';

// Runs in every integration test file before it loads: point the apps at this run's database and prefix.
const env = loadTestEnv();
process.env.NODE_ENV = 'test';
process.env.DATABASE_URL = env.DATABASE_URL;
process.env.REDIS_URL = env.REDIS_URL;
process.env.REDIS_PREFIX = env.REDIS_PREFIX;
process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL || 'silent';
process.env.ENABLE_CRON = '0';
