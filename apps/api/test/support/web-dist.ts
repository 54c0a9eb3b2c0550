import type { INestApplication } from '@nestjs/common';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createApiApp } from '../../src/bootstrap';
import { loadApiConfig } from '../../src/config/api.config';

/**
 * The api as it starts in production (this run's environment, no test overrides) serving a web build made
 * of `files` (path under the build → content) in a temporary folder; `close()` stops it and removes the folder.
 */
export async function startAppServing(
  files: Record<string, string>,
): Promise<{ app: INestApplication; close(): Promise<void> }> {
  const webDist = mkdtempSync(join(tmpdir(), 'csvm-web-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(webDist, path)), { recursive: true });
    writeFileSync(join(webDist, path), content);
  }
  const app = await createApiApp(loadApiConfig({ ...process.env, WEB_DIST: webDist }));
  await app.init();
  return {
    app,
    async close() {
      await app.close();
      rmSync(webDist, { recursive: true, force: true });
    },
  };
}
