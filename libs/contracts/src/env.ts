import { plainToInstance } from 'class-transformer';
import { ValidateBy, validateSync, type ValidationError } from 'class-validator';

// The process environment is a boundary too: each app declares its variables as a class (class-validator
// rules, defaults as initialisers) and reads them here, with the same library as request bodies.

/** postgres://, redis://, smtp://, http(s)://: any scheme, absolute (localhost and service names allowed). */
export const IsAbsoluteUrl = () =>
  ValidateBy(
    {
      name: 'isAbsoluteUrl',
      validator: {
        validate: (v: unknown) => {
          if (typeof v !== 'string') return false;
          try {
            return new URL(v).protocol.length > 1;
          } catch {
            return false;
          }
        },
      },
    },
    { message: 'must be an absolute URL (scheme://host…)' },
  );

/** A value for a config error message; secrets are never echoed into logs. */
function shown(key: string, value: string | undefined): string {
  if (value === undefined) return 'null';
  return /SECRET|PASSWORD|_KEY$/.test(key) ? '(hidden)' : JSON.stringify(value);
}

/**
 * Reads `env` into `cls` (empty values count as unset; numbers and booleans converted from their text by
 * the declared types). Answers the instance, or the problems, one line per variable.
 */
export function readEnv<T extends object>(
  cls: new () => T,
  env: Record<string, string | undefined>,
): { value: T; problems: [] } | { value: null; problems: string[] } {
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '' && v !== undefined));
  const value = plainToInstance(cls, given, { enableImplicitConversion: true, exposeDefaultValues: true });
  const errors: ValidationError[] = validateSync(value, { forbidUnknownValues: false });
  if (errors.length === 0) return { value, problems: [] };
  return {
    value: null,
    problems: errors.map(
      (e) =>
        `  ${e.property}: ${Object.values(e.constraints ?? {}).join('; ')} (got ${shown(e.property, env[e.property])})`,
    ),
  };
}
