import 'reflect-metadata';
import { ConfigError, loadApiConfig } from './config/api.config';
import { createApiApp, preflight, StartupError } from './bootstrap';
import { waitForDependencies } from './health/dependency-gate';

async function main(): Promise<void> {
  let config;
  try {
    config = loadApiConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  let releasePort: () => Promise<void>;
  try {
    // Postgres or Redis down: wait for them (the port answers 503 meanwhile) instead of exiting.
    releasePort = await waitForDependencies({
      port: config.port,
      host: config.host,
      check: () => preflight(config),
      unreachable: (err) => err instanceof StartupError && err.unreachable,
      log: (line) => console.error(`api: ${line}`),
    });
  } catch (err) {
    if (err instanceof StartupError) {
      console.error(`api: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const app = await createApiApp(config);
  await releasePort();
  await app.listen(config.port, config.host);
  console.log(`CSV Mapper api listening on ${config.appUrl} (port ${config.port})`);
}

main().catch((err) => {
  console.error('api: failed to start:', err);
  process.exit(1);
});
