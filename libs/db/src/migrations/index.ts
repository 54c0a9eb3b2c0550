import { InitialSchema1700000000000 } from './1700000000000-initial-schema';

/** Every migration in order; new ones are appended here. */
export const MIGRATIONS = [InitialSchema1700000000000];
