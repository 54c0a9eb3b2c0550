// @csv-mapper/contracts — every shape that crosses a boundary: HTTP request DTOs (class-validator) and
// response types, the mapping contract, queue and webhook payloads, error codes. The api validates with
// one global ValidationPipe; the web app imports it with `import type` only.
// class-transformer's @Type reads decorator metadata: load the polyfill wherever the classes are.
import 'reflect-metadata';
export * from './errors';
export * from './mapping';
export * from './recipe';
export * from './rules';
export * from './jobs';
export * from './http/common';
export * from './http/auth';
export * from './http/api-keys';
export * from './http/mappings';
export * from './http/webhooks';
export * from './http/processing';
export * from './http/billing';
export * from './http/users';
export * from './http/uploads';
export * from './http/jobs';
export * from './http/templates';
export * from './http/teams';
export * from './env';
export * from './http/batches';
export * from './http/history';
export * from './source-drift';
