import { ValidationPipe, type ValidationError } from '@nestjs/common';
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

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    forbidUnknownValues: true,
    // `value` lets an error name the mapping pair it is in (problemsOf); it never reaches an answer.
    validationError: { target: false, value: true },
    exceptionFactory: toValidationError,
  });
}
