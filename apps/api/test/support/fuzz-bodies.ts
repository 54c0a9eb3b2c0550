// The fuzz test's random JSON bodies (issue 18, issue 28), seeded by the caller with fc.sample: used by
// apps/api/test/fuzz.e2e-spec.ts (nothing may get a 5xx) and bench/api-memory.bench.ts (the api's memory
// over rounds of them).
import { TRANSFORM_KINDS } from '@csv-mapper/contracts';
import fc from 'fast-check';

/** Field names the api's bodies use, so random objects get past "unknown field" and reach deeper code. */
const KEYS = [
  'username',
  'email',
  'password',
  'firstName',
  'lastName',
  'token',
  'name',
  'templateHeaders',
  'dataHeaders',
  'mappings',
  'templateColumn',
  'dataColumn',
  'transform',
  'kind',
  'input',
  'output',
  'value',
  'decimals',
  'decimalSeparator',
  'negative',
  'debitColumn',
  'creditColumn',
  'sign',
  'templateId',
  'dataId',
  'mappingId',
  'options',
  'delimiter',
  'lineEnding',
  'encoding',
  'url',
  'events',
  'enabled',
  'description',
  'plan',
  'days',
  'priceId',
  'sessionId',
  'type',
  'id',
  'required',
  'locale',
  'dateOrder',
  'headerRow',
  'async',
  'scopes',
  'expiresAt',
  'currentPassword',
  'newPassword',
  'remember',
  '__proto__',
  'constructor',
];
const WORDS = [
  ...TRANSFORM_KINDS,
  'auto',
  'DD/MM/YYYY',
  'YYYY-MM-DD',
  'MM',
  'template',
  'data',
  'pro',
  'business',
  'enterprise',
  'free',
  'job.completed',
  'job.failed',
  'https://example.com/hook',
  'http://127.0.0.1:1/x',
  ',',
  ';',
  '\t',
  'utf-8',
  'windows-1252',
  '\r\n',
  '',
  ' ',
  '00000000-0000-0000-0000-000000000000',
  'a'.repeat(300),
];
const nastyString = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    'a\u0000b',
    '\u0000',
    '\ud800',
    '\uffff',
    '=cmd|x',
    '../../etc/passwd',
    "'; DROP TABLE users;--",
  ),
  fc.string({ unit: fc.constantFrom('a', '\u0000', 'é', '😀', '"', '\\'), maxLength: 12 }),
);
const scalar = fc.oneof(
  nastyString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1e308, Number.MAX_SAFE_INTEGER, 2 ** 31, true, false, null),
);
const { value: jsonValue } = fc.letrec<{ value: unknown; object: Record<string, unknown> }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    tie('object'),
    fc.array(tie('value'), { maxLength: 4 }),
  ),
  object: fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 8 })), tie('value'), {
    maxKeys: 6,
  }),
}));
/** A mapping-shaped body (the engine's contract) with random holes: the date `input` bug lived here. */
const mappingish = fc.record(
  {
    name: nastyString,
    templateId: nastyString,
    dataId: nastyString,
    templateHeaders: fc.array(nastyString, { maxLength: 4 }),
    mappings: fc.array(
      fc.record(
        {
          templateColumn: nastyString,
          dataColumn: nastyString,
          transform: fc.record(
            {
              kind: fc.constantFrom(...TRANSFORM_KINDS, 'x'),
              input: jsonValue,
              output: jsonValue,
              value: jsonValue,
              decimals: jsonValue,
              debitColumn: jsonValue,
              creditColumn: jsonValue,
            },
            { requiredKeys: ['kind'] },
          ),
        },
        { requiredKeys: [] },
      ),
      { maxLength: 3 },
    ),
    options: jsonValue,
  },
  { requiredKeys: [] },
);
/** Nulls and wrong types where a pair or a transform belongs (issue 28: `"transform": [null]` was a 500). */
const misplaced = fc.constantFrom(null, 0, 7, '', 'trim', true, [], [null], [{ kind: 'trim' }]);
const holeyMappings = fc.record({
  name: nastyString,
  templateId: nastyString,
  dataId: nastyString,
  templateFileId: nastyString,
  dataFileId: nastyString,
  dataFileIds: fc.array(nastyString, { maxLength: 2 }),
  templateHeaders: fc.array(nastyString, { maxLength: 2 }),
  mappings: fc.array(
    fc.oneof(
      misplaced,
      fc.record({
        templateColumn: nastyString,
        dataColumn: nastyString,
        transform: fc.oneof(
          misplaced,
          fc.array(fc.oneof(misplaced, fc.record({ kind: fc.constantFrom(...TRANSFORM_KINDS) })), {
            maxLength: 3,
          }),
        ),
      }),
    ),
    { maxLength: 3 },
  ),
  options: fc.oneof(misplaced, jsonValue),
});
/** Objects and arrays nested past the 64-level limit, wherever they sit in the body (issue 28: 500s). */
const deep = fc
  .tuple(fc.integer({ min: 60, max: 4000 }), fc.constantFrom(...KEYS), fc.boolean())
  .map(([depth, key, arrays]) => {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = arrays && i % 2 ? [v] : { [key]: v };
    return { [key]: v };
  });
/** One request body: the mix the fuzz e2e sends to every write route (and bench:api-memory, for memory). */
export const fuzzBody = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.constantFrom(...KEYS), jsonValue, { maxKeys: 6 }) },
  { weight: 3, arbitrary: mappingish },
  { weight: 1, arbitrary: holeyMappings },
  { weight: 1, arbitrary: deep },
  { weight: 2, arbitrary: jsonValue },
  // Not JSON at all, sent as application/json.
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map((s) => ({ raw: s })) },
);
