export * from './queues';
export * from './redis';
export * from './ephemeral-store';
export * from './job-producer';
export * from './job-index';
export * from './webhook-signing';
export * from './job-metrics';
export * from './job-events';
