#!/usr/bin/env node
// `npm run migrate`: create the database if missing and run pending migrations.
'use strict';
const { env, buildIfNeeded, checkServices, migrate } = require('./lib');

(async () => {
  const e = env();
  await checkServices(e);
  buildIfNeeded();
  await migrate(e);
  console.log('csv-mapper: database is up to date');
})().catch((err) => {
  console.error('csv-mapper: migration failed:', err.message || err);
  process.exit(1);
});
