// Issue 28: the worker refuses a Redis whose maxmemory-policy evicts keys, as the api does at boot. The
// check lives with the other Redis wiring in libs/queue.
export { assertRedisKeepsKeys } from '@csv-mapper/queue';
