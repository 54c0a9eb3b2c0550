export * from './entities';
export * from './entities/saved-mapping.entity';
export type { WebhookDeliveryOutcome } from './entities/webhook-delivery.entity';
export { MIGRATIONS } from './migrations';
export {
  buildDataSourceOptions,
  ensureDatabase,
  runMigrations,
  DEFAULT_DATABASE_URL,
} from './data-source-options';
export * from './quota-ledger';
export * from './run-history';
