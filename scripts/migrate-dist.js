#!/usr/bin/env node
// Container entry step: create the database if missing and migrate, from the built dist/ only.
'use strict';
const path = require('node:path');
const db = require(path.join(__dirname, '..', 'dist/libs/db/src/index.js'));
const url = process.env.DATABASE_URL || db.DEFAULT_DATABASE_URL;
(async () => {
  await db.ensureDatabase(url);
  const ran = await db.runMigrations(url);
  console.log(ran.length ? `migrated: ${ran.join(', ')}` : 'database is up to date');
})().catch((err) => {
  console.error('migration failed:', err.message);
  process.exit(1);
});
