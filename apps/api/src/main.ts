import 'reflect-metadata';
import { ConfigError, loadApiConfig } from './config/api.config';
import { createApiApp, preflight, StartupError } from './bootstrap';

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
  try {
    await preflight(config);
  } catch (err) {
    if (err instanceof StartupError) {
      console.error(`api: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const app = await createApiApp(config);
  await app.listen(config.port, config.host);
  console.log(`CSV Mapper api listening on ${config.appUrl} (port ${config.port})`);
}

main().catch((err) => {
  console.error('api: failed to start:', err);
  process.exit(1);
});
