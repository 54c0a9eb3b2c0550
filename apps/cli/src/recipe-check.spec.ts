import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { Recipe } from '@csv-mapper/contracts';
import { quickRecipe } from './recipe-check';
import { parseRecipe, RecipeError } from './run-recipe';

// The command line's quick recipe check against the contract's own validation (class-validator): what the
// quick check passes, the contract passes, and the engine gets the same values; what it does not pass goes
// to the contract, whose messages the command line prints.

const base = {
  format: 'csv-mapper/recipe',
  version: 1,
  name: '  Monthly bank export  ',
  templateHeaders: ['Date', 'Payee', 'Amount', 'Memo'],
  mappings: [
    { templateColumn: 'Date', dataColumn: 'Booking Date', transform: { kind: 'date', output: 'YYYY-MM-DD' } },
    { templateColumn: 'Payee', dataColumn: 'Name' },
    {
      templateColumn: 'Amount',
      dataColumn: 'Betrag',
      transform: { kind: 'amount', decimals: 2, sign: { column: 'Af Bij', negative: ['Af'] } },
    },
    { templateColumn: 'Memo', empty: true },
  ],
};

function contract(json: object): { ok: boolean; value: unknown } {
  const r = plainToInstance(Recipe, json);
  return { ok: validateSync(r, { whitelist: true, forbidNonWhitelisted: true }).length === 0, value: r };
}

/** Both as the engine reads them (JSON: class instances and plain objects alike). */
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

const TRANSFORMS: unknown[] = [
  { kind: 'date', input: 'DD/MM/YYYY', output: 'MM/DD/YYYY' },
  { kind: 'number', decimalSeparator: ',', decimals: 3, invert: true },
  { kind: 'amount', negative: 'parentheses', decimalSeparator: 'auto' },
  { kind: 'boolean', output: ['Yes', 'No'] },
  { kind: 'debitCredit', debitColumn: 'Debit', creditColumn: 'Credit', sign: 'debitPositive', decimals: 2 },
  { kind: 'constant', value: 'EUR' },
  { kind: 'trim' },
  { kind: 'upper' },
  { kind: 'lower' },
  { kind: 'combine', pattern: '{First} {Last}' },
  { kind: 'split', separator: ',', part: -1 },
  { kind: 'split', preset: 'personName', part: 'last' },
  { kind: 'mapValues', table: { Y: 'TRUE', N: 'FALSE' }, caseInsensitive: true, otherwise: { value: '?' } },
  { kind: 'mapValues', table: {}, otherwise: 'blank' },
  { kind: 'default', value: 'n/a' },
  { kind: 'slug' },
  { kind: 'truncate', length: 40 },
  { kind: 'replace', find: '(\\d+)', replace: '#$1', regex: true },
  { kind: 'coalesce', columns: ['Mobile', 'Home Phone'] },
  [{ kind: 'combine', pattern: '{A}-{B}' }, { kind: 'trim' }, { kind: 'truncate', length: 5 }],
];

/** Recipes with one mistake each (or parts the quick check leaves to the contract). */
const WRONG: [string, object][] = [
  ['format', { ...base, format: 'other' }],
  ['version', { ...base, version: 2 }],
  ['name empty after trim', { ...base, name: '   ' }],
  ['name too long', { ...base, name: 'x'.repeat(201) }],
  ['unknown field', { ...base, extra: 1 }],
  ['templateHeaders empty', { ...base, templateHeaders: [] }],
  ['templateHeaders not text', { ...base, templateHeaders: ['a', 2] }],
  ['header too long', { ...base, templateHeaders: ['x'.repeat(501)] }],
  ['mappings missing', { ...base, mappings: undefined }],
  ['pair not an object', { ...base, mappings: ['Date'] }],
  ['pair unknown field', { ...base, mappings: [{ templateColumn: 'Date', dataColumn: 'D', x: 1 }] }],
  ['pair without templateColumn', { ...base, mappings: [{ dataColumn: 'D' }] }],
  ['unknown transform', { ...base, mappings: [{ templateColumn: 'D', transform: { kind: 'nope' } }] }],
  [
    'transform field of another kind',
    { ...base, mappings: [{ templateColumn: 'D', transform: { kind: 'trim', value: 'x' } }] },
  ],
  ['date without output', { ...base, mappings: [{ templateColumn: 'D', transform: { kind: 'date' } }] }],
  [
    'decimals not whole',
    { ...base, mappings: [{ templateColumn: 'D', transform: { kind: 'number', decimals: 1.5 } }] },
  ],
  [
    'sign with nothing negative',
    {
      ...base,
      mappings: [{ templateColumn: 'D', transform: { kind: 'amount', sign: { column: 'X', negative: [] } } }],
    },
  ],
  ['empty chain', { ...base, mappings: [{ templateColumn: 'D', transform: [] }] }],
  [
    'chain too long',
    { ...base, mappings: [{ templateColumn: 'D', transform: Array(11).fill({ kind: 'trim' }) }] },
  ],
  [
    'split part without preset',
    {
      ...base,
      mappings: [{ templateColumn: 'D', transform: { kind: 'split', separator: ',', part: 'first' } }],
    },
  ],
  [
    'truncate 0',
    { ...base, mappings: [{ templateColumn: 'D', transform: { kind: 'truncate', length: 0 } }] },
  ],
  ['reading delimiter', { ...base, reading: { delimiter: ':' } }],
  ['reading headerRow', { ...base, reading: { headerRow: -1 } }],
  ['reading unknown field', { ...base, reading: { quote: "'" } }],
  ['output encoding', { ...base, output: { encoding: 'utf-16' } }],
  ['output bom not boolean', { ...base, output: { bom: 'yes' } }],
  ['templateRules (left to the contract)', { ...base, templateRules: { Date: { required: true } } }],
];

describe('quickRecipe (the command line recipe check)', () => {
  it('passes a valid recipe as the contract gives it: name trimmed, dataColumn always text', () => {
    const quick = quickRecipe(base);
    const slow = contract(base);
    expect(slow.ok).toBe(true);
    expect(quick).not.toBeNull();
    expect(plain(quick)).toEqual(plain(slow.value));
    expect(quick?.name).toBe('Monthly bank export');
    expect(quick?.mappings[3].dataColumn).toBe('');
  });

  it.each(TRANSFORMS.map((t) => [JSON.stringify(t), t]))('passes every transform: %s', (_name, t) => {
    const json = {
      ...base,
      description: null,
      dataHeaders: ['Booking Date', 'Name'],
      mappings: [{ templateColumn: 'Date', dataColumn: null, transform: t }],
      reading: { encoding: 'windows-1252', delimiter: ';', headerRow: 2 },
      output: { delimiter: '\t', lineEnding: '\n', bom: false, quoteStyle: 'all', matchTemplate: false },
    };
    const slow = contract(json);
    expect(slow.ok).toBe(true);
    const quick = quickRecipe(json);
    expect(quick).not.toBeNull();
    expect(plain(quick)).toEqual(plain(slow.value));
  });

  it.each(WRONG)('leaves it to the contract: %s', (_name, json) => {
    expect(quickRecipe(json as Record<string, unknown>)).toBeNull();
  });

  it.each(WRONG.filter(([name]) => !name.startsWith('templateRules')))(
    'the contract refuses it too, and parseRecipe says why: %s',
    async (_name, json) => {
      expect(contract(json).ok).toBe(false);
      await expect(parseRecipe(JSON.stringify(json))).rejects.toThrow(RecipeError);
      await expect(parseRecipe(JSON.stringify(json))).rejects.toThrow(/^The recipe is not valid: /);
    },
  );

  it('a recipe with template rules goes through the contract and runs with its rules', async () => {
    const json = { ...base, templateRules: { Date: { required: true } } };
    expect(contract(json).ok).toBe(true);
    const r = await parseRecipe(JSON.stringify(json));
    expect(r.templateRules).toEqual({ Date: { required: true } });
  });
});
