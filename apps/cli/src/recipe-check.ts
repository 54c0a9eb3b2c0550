// The recipe check on the command line's hot path: a hand-written check of the Recipe contract
// (libs/contracts recipe.ts and mapping.ts) that needs neither reflection metadata nor class-validator.
// It answers only "certainly valid" — then it returns what plainToInstance would have given the engine
// (name trimmed, every pair's dataColumn a string) — or "not sure" (null): a recipe with a mistake, or
// with parts it does not check (templateRules), goes to the contract's own validation (recipe-validate.ts,
// loaded only then), so every error message is today's. Whatever it accepts, the contract accepts:
// recipe-check.spec.ts holds the two side by side. Keep it in step with the contract's decorators.
import type { MappingPair, Recipe } from '@csv-mapper/contracts';
import { DELIMITERS } from '../../../libs/csv-engine/src/delimiters';

export class RecipeError extends Error {}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown): boolean => v === undefined || v === null;
/** Length as class-validator's MaxLength counts it is never more than .length: checking .length is safe. */
const str = (v: unknown, max: number): boolean => typeof v === 'string' && v.length <= max;
const nonEmptyStr = (v: unknown, max: number): boolean => str(v, max) && v !== '';
const optStr = (v: unknown, max: number): boolean => absent(v) || str(v, max);
const optBool = (v: unknown): boolean => absent(v) || typeof v === 'boolean';
const optIn = (v: unknown, list: readonly unknown[]): boolean => absent(v) || list.includes(v);
const int = (v: unknown, min: number, max: number): boolean =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const optInt = (v: unknown, min: number, max: number): boolean => absent(v) || int(v, min, max);
const strings = (v: unknown, minSize: number, maxSize: number, maxLength: number): boolean =>
  Array.isArray(v) &&
  v.length >= minSize &&
  v.length <= maxSize &&
  v.every((s) => typeof s === 'string' && s.length <= maxLength);
/** forbidNonWhitelisted: no key the class does not declare. */
const onlyKeys = (o: Obj, keys: readonly string[]): boolean => Object.keys(o).every((k) => keys.includes(k));

const SEPARATORS = ['auto', '.', ','] as const;

function signOk(v: unknown): boolean {
  if (absent(v)) return true;
  return (
    isObj(v) &&
    onlyKeys(v, ['column', 'negative']) &&
    nonEmptyStr(v.column, 500) &&
    strings(v.negative, 1, 20, 100)
  );
}

/** One transform of the contract, by kind, with the contract's limits. */
const TRANSFORMS: Record<string, { keys: readonly string[]; ok(t: Obj): boolean }> = {
  date: { keys: ['input', 'output'], ok: (t) => optStr(t.input, 50) && str(t.output, 50) },
  number: {
    keys: ['decimalSeparator', 'decimals', 'sign', 'invert'],
    ok: (t) =>
      optIn(t.decimalSeparator, SEPARATORS) &&
      optInt(t.decimals, 0, 10) &&
      signOk(t.sign) &&
      optBool(t.invert),
  },
  amount: {
    keys: ['decimals', 'negative', 'decimalSeparator', 'sign', 'invert'],
    ok: (t) =>
      optInt(t.decimals, 0, 10) &&
      optIn(t.negative, ['minus', 'parentheses']) &&
      optIn(t.decimalSeparator, SEPARATORS) &&
      signOk(t.sign) &&
      optBool(t.invert),
  },
  boolean: { keys: ['output'], ok: (t) => strings(t.output, 2, 2, 50) },
  debitCredit: {
    keys: ['debitColumn', 'creditColumn', 'sign', 'decimals'],
    ok: (t) =>
      str(t.debitColumn, 500) &&
      str(t.creditColumn, 500) &&
      optIn(t.sign, ['creditPositive', 'debitPositive']) &&
      optInt(t.decimals, 0, 10),
  },
  constant: { keys: ['value'], ok: (t) => str(t.value, 1000) },
  trim: { keys: [], ok: () => true },
  upper: { keys: [], ok: () => true },
  lower: { keys: [], ok: () => true },
  combine: { keys: ['pattern'], ok: (t) => nonEmptyStr(t.pattern, 1000) },
  split: {
    keys: ['separator', 'preset', 'part'],
    ok: (t) =>
      (t.separator === undefined || nonEmptyStr(t.separator, 20)) &&
      (t.preset === undefined
        ? int(t.part, -1000, 1000)
        : (t.preset === 'personName' || t.preset === 'cityStateZip') &&
          ['first', 'last', 'city', 'state', 'zip'].includes(t.part as string)),
  },
  mapValues: {
    keys: ['table', 'caseInsensitive', 'otherwise'],
    ok: (t) =>
      isObj(t.table) &&
      Object.keys(t.table).length <= 5000 &&
      Object.entries(t.table).every(([k, x]) => k.length <= 1000 && str(x, 1000)) &&
      optBool(t.caseInsensitive) &&
      (t.otherwise === undefined ||
        t.otherwise === 'keep' ||
        t.otherwise === 'blank' ||
        (isObj(t.otherwise) && Object.keys(t.otherwise).length === 1 && str(t.otherwise.value, 1000))),
  },
  default: { keys: ['value'], ok: (t) => str(t.value, 1000) },
  slug: { keys: [], ok: () => true },
  truncate: { keys: ['length'], ok: (t) => int(t.length, 1, 100000) },
  replace: {
    keys: ['find', 'replace', 'regex'],
    ok: (t) => nonEmptyStr(t.find, 200) && str(t.replace, 1000) && optBool(t.regex),
  },
  coalesce: { keys: ['columns'], ok: (t) => strings(t.columns, 1, 20, 500) },
};

function transformOk(t: unknown): boolean {
  if (!isObj(t) || typeof t.kind !== 'string' || !Object.hasOwn(TRANSFORMS, t.kind)) return false;
  const spec = TRANSFORMS[t.kind];
  return Object.keys(t).every((k) => k === 'kind' || spec.keys.includes(k)) && spec.ok(t);
}

function pair(p: unknown): MappingPair | null {
  if (!isObj(p) || !onlyKeys(p, ['templateColumn', 'dataColumn', 'transform', 'empty'])) return null;
  if (!str(p.templateColumn, 500) || !optStr(p.dataColumn, 500) || !optBool(p.empty)) return null;
  const t = p.transform;
  if (!absent(t)) {
    if (Array.isArray(t)) {
      if (t.length < 1 || t.length > 10 || !t.every(transformOk)) return null;
    } else if (!transformOk(t)) return null;
  }
  // @Transform(value ?? '') and the '' default: the engine always gets a string.
  return { ...p, dataColumn: (p.dataColumn as string | null | undefined) ?? '' } as MappingPair;
}

/**
 * The recipe as the contract's validation would give it, when it is certainly valid; null when the
 * contract's validation must decide (and word the errors).
 */
export function quickRecipe(json: Obj): Recipe | null {
  const keys = [
    'format',
    'version',
    'name',
    'description',
    'templateHeaders',
    'dataHeaders',
    'mappings',
    'reading',
    'output',
    'templateRules',
  ];
  if (!onlyKeys(json, keys)) return null;
  if (json.format !== 'csv-mapper/recipe' || json.version !== 1) return null;
  // @Trim then IsString, IsNotEmpty, MaxLength(200).
  if (typeof json.name !== 'string') return null;
  const name = json.name.trim();
  if (name === '' || name.length > 200) return null;
  if (!optStr(json.description, 5000)) return null;
  if (!strings(json.templateHeaders, 1, 1000, 500)) return null;
  if (!absent(json.dataHeaders) && !strings(json.dataHeaders, 0, 1000, 500)) return null;
  // Rules are checked by the contract's validation (templateRulesProblem): not on this path.
  if (json.templateRules !== undefined) return null;
  const r = json.reading;
  if (
    !absent(r) &&
    !(
      isObj(r) &&
      onlyKeys(r, ['encoding', 'delimiter', 'headerRow']) &&
      optIn(r.encoding, ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252']) &&
      optIn(r.delimiter, DELIMITERS) &&
      optInt(r.headerRow, 0, 1000)
    )
  )
    return null;
  const o = json.output;
  if (
    !absent(o) &&
    !(
      isObj(o) &&
      onlyKeys(o, [
        'formulaProtection',
        'bom',
        'delimiter',
        'lineEnding',
        'quoteStyle',
        'encoding',
        'matchTemplate',
      ]) &&
      optBool(o.formulaProtection) &&
      optBool(o.bom) &&
      optIn(o.delimiter, DELIMITERS) &&
      optIn(o.lineEnding, ['\r\n', '\n']) &&
      optIn(o.quoteStyle, ['minimal', 'all']) &&
      optIn(o.encoding, ['utf-8', 'windows-1252']) &&
      optBool(o.matchTemplate)
    )
  )
    return null;
  if (!Array.isArray(json.mappings) || json.mappings.length > 1000) return null;
  const mappings: MappingPair[] = [];
  for (const p of json.mappings) {
    const checked = pair(p);
    if (checked === null) return null;
    mappings.push(checked);
  }
  return { ...json, name, mappings } as unknown as Recipe;
}
