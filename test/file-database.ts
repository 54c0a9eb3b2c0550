import { Client } from 'pg';

// Runs in every integration test file after the framework is installed: its beforeAll is the first hook of the
// file, so the file's database (named by setup-env.ts) exists before anything connects. The copy is made from
// the run's migrated database (global-setup.ts), much faster than migrating again; the global teardown drops it.
beforeAll(async () => {
  const name = process.env.CSVM_TEST_FILE_DATABASE as string;
  const template = process.env.CSVM_TEST_TEMPLATE_DATABASE as string;
  const admin = new Client({ connectionString: process.env.CSVM_TEST_ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (err) {
        // 55006: another session is connected to the template (a parallel file's copy just starting).
        if ((err as { code?: string }).code !== '55006' || attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  } finally {
    await admin.end();
  }
});
