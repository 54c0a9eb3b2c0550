import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { AppError } from './app-error';

// The one validation edge: every request body is a contract DTO (libs/contracts) checked here. Unknown
// properties are refused, values are converted to the DTO's types. A failure answers 400
// `{ error, code, details }`: `error` is the first problem in the DTO's order (the spec's own message where
// the spec gives one), `code` is VALIDATION_FAILED unless the rule names another (`context: { code }`),
// and `details` maps every failing field path to its messages.

interface Problem {
  field: string;
  message: string;
  code?: string;
}

/**
 * Which of a field's failed rules speaks first: presence and type before format, so an empty username
 * reads "Please enter username, email, and password" rather than the username pattern.
 */
const RULE_ORDER = [
  'isDefined',
  'isString',
  'isBoolean',
  'isArray',
  'isNumber',
  'isInt',
  'isNotEmpty',
  'arrayMinSize',
];
const rank = (name: string) => {
  const i = RULE_ORDER.indexOf(name);
  return i < 0 ? RULE_ORDER.length : i;
};

/** The template column of a mapping pair being checked (its DTO object, when class-validator gives it). */
function pairColumn(target: unknown): string | undefined {
  const column = (target as { templateColumn?: unknown } | undefined)?.templateColumn;
  return typeof column === 'string' && column !== '' ? column : undefined;
}

function problemsOf(errors: ValidationError[], parent = '', column?: string): Problem[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const rules = Object.entries(e.constraints ?? {}).sort(([a], [b]) => rank(a) - rank(b));
    const own = rules.map(([name, message]) => ({
      field,
      // Nested fields name their path: "mappings.0.transform.kind must be one of …"; a message written
      // for people (a rule's own) names the pair's template column instead: 'For "Handle", the combine …'.
      message: !parent
        ? message
        : message.startsWith(`${e.property} `)
          ? `${field}${message.slice(e.property.length)}`
          : column
            ? `For "${column}", ${message}${/[.!?]$/.test(message) ? '' : '.'}`
            : message,
      code: (e.contexts?.[name] as { code?: string } | undefined)?.code,
    }));
    return [...own, ...problemsOf(e.children ?? [], field, pairColumn(e.value) ?? column)];
  });
}

export function toValidationError(errors: ValidationError[]): AppError {
  const problems = problemsOf(errors);
  const first = problems[0] ?? { field: '', message: 'The request body is not valid.' };
  const details: Record<string, string[]> = {};
  for (const p of problems) {
    const list = (details[p.field || 'body'] ??= []);
    if (!list.includes(p.message)) list.push(p.message);
  }
  return new AppError(400, first.code ?? 'VALIDATION_FAILED', first.message, details);
}

/** class-transformer's `@Type()` records (Nest's mapped-types reads them from the same place). */
interface TypeRecord {
  typeFunction: (options?: unknown) => unknown;
  options?: { discriminator?: { property: string; subTypes: { name: string; value: unknown }[] } };
}
interface TypeStorage {
  defaultMetadataStorage: { findTypeMetadata(target: unknown, property: string): TypeRecord | undefined };
}
// The package ships no typings for this path.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage: typeRecords } = require('class-transformer/cjs/storage') as TypeStorage;

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'string' ? 'a string' : typeof v === 'number' ? 'a number' : `a ${typeof v}`;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The DTO class a nested object is turned into (a discriminated one by its `kind`; none when unknown). */
function nestedClass(record: TypeRecord, item: Record<string, unknown>): unknown {
  const d = record.options?.discriminator;
  if (!d) return record.typeFunction();
  return d.subTypes.find((s) => s.name === item[d.property])?.value;
}

/** `@Type(() => Number)` and the like convert a scalar: not a nested DTO. */
function convertsScalar(record: TypeRecord): boolean {
  if (record.options?.discriminator) return false;
  const t = record.typeFunction();
  return t === Number || t === String || t === Boolean || t === Date;
}

/**
 * The first nested DTO field (`@Type()`) that holds something other than an object, or a list with an item
 * that is not one: `"mappings": [null]`, `"transform": [null, 7]`. class-transformer throws a TypeError on
 * some of these (a null in a discriminated list: a 500) and class-validator's own message names no index,
 * so they are found here first, on the body as sent.
 */
export function misplacedNested(body: unknown, target: unknown, path = '', depth = 0): Problem | undefined {
  if (!isPlainObject(body) || typeof target !== 'function' || depth > 16) return undefined;
  for (const [key, value] of Object.entries(body)) {
    const record = typeRecords.findTypeMetadata(target, key);
    if (!record || value === undefined || value === null || convertsScalar(record)) continue;
    const field = `${path}${key}`;
    const declared = Reflect.getMetadata('design:type', target.prototype as object, key) as unknown;
    const items = Array.isArray(value) ? value : [value];
    for (const [i, item] of items.entries()) {
      const at = Array.isArray(value) ? `${field}.${i}` : field;
      if (!isPlainObject(item)) {
        const want =
          Array.isArray(value) || declared !== Object
            ? 'must be an object'
            : 'must be an object or a list of objects';
        return { field: at, message: `${at} ${want}, not ${kindOf(item)}.` };
      }
      const inner = misplacedNested(item, nestedClass(record, item), `${at}.`, depth + 1);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** The global pipe, with the nested-shape check ahead of class-transformer. */
class EdgeValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.metatype && this.toValidate(metadata)) {
      const problem = misplacedNested(value, metadata.metatype);
      if (problem) {
        throw new AppError(400, 'VALIDATION_FAILED', problem.message, { [problem.field]: [problem.message] });
      }
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new EdgeValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    forbidUnknownValues: true,
    // `value` lets an error name the mapping pair it is in (problemsOf); it never reaches an answer.
    validationError: { target: false, value: true },
    exceptionFactory: toValidationError,
  });
}
