// The shared value rules (libs/rules, what the review grid checks as a cell is edited) against the engine's
// own verdicts: its text check, its byte check of the hot path (checkBytes) and a whole mapping run, over a
// table of tricky values for every rule. Equal rules and equal messages, or the grid's hint and the
// server's answer could differ. Also the formula guard and the cell writer on text against the writer's bytes.
import type { ColumnRules, WarningRule } from '@csv-mapper/contracts';
import { applyMappingToBuffer } from '../../csv-engine/src/mapping';
import { checkBytes, checkValue, compileRules } from '../../csv-engine/src/mapping/rules';
import { MappingError } from '../../csv-engine/src/errors';
import { parseCsv } from '../../csv-engine/src/parse';
import type { MappingPair } from '../../csv-engine/src/types';
import { needsFormulaGuard, writeCsv } from '../../csv-engine/src/writer';
import {
  checkColumnValue,
  columnRulesProblem,
  csvCellText,
  formulaGuardNeeded,
  REQUIRED_MESSAGE,
  type RuleProblem,
} from '.';

const NUMBERS = [
  '12',
  '-1.5',
  '+12.50',
  '1e3',
  '1E-3',
  '.5',
  '12.',
  '.',
  '1,5',
  '1.234,56',
  ' 12 ',
  '12 ',
  '0x1A',
];
const MORE_NUMBERS = [
  '(12.50)',
  '12.50-',
  '--1',
  '+-1',
  '1e',
  '1e+',
  '١٢',
  '１２',
  'NaN',
  'Infinity',
  '-',
  '+',
];
const AMOUNTS = [
  '(12.50)',
  '+12.50',
  '-12.50',
  '12.5',
  '12.',
  '.50',
  '(12.50',
  '12.50)',
  '(-12.50)',
  '$12.50',
];
const MORE_AMOUNTS = [
  '12.50 EUR',
  '1,234.56',
  '1.234,56',
  ' 12 ',
  '1e3',
  '()',
  '(.5)',
  '0',
  '00012',
  '12,50',
];
const EMAILS = [
  'a@b.co',
  'first.last+tag@example.com',
  'user@bücher.de',
  'jürgen@example.com',
  'ユーザー@例え.jp',
  'a@b.co.',
  'a@b.',
  'a@.b',
  'a@b',
  '@b.co',
  'a@@b.co',
  'a@b@c.co',
  'a b@c.co',
  'a\u00a0b@c.co',
  'a@b\u2028.co',
  'a@b.co\u3000',
  '\ufeffa@b.co',
  'a\tb@c.co',
  '"a"@b.co',
  'a(b)@c.co',
  'a@[1.2.3.4]',
  'a,b@c.co',
  'a;b@c.co',
  'a<b>@c.co',
  'a\\b@c.co',
  'a\x01b@c.co',
  'a\x7fb@c.co',
  '£@b.co',
  `${'x'.repeat(240)}@example.com`,
  `${'x'.repeat(241)}@example.com`,
  `${'é'.repeat(130)}@example.com`,
  ' a@b.co',
  'a@b.co ',
];
const DATES = [
  '2024-02-29',
  '2023-02-29',
  '2024-13-01',
  '2024-00-10',
  '2024-01-00',
  '2024-1-5',
  '2024/01/01',
];
const MORE_DATES = [
  ' 2024-01-01',
  '24-01-01',
  '20240101',
  '2024-04-31',
  '2024-12-31',
  '0000-01-01',
  '٢٠٢٤-01-01',
];
const BOOLEANS = [
  'true',
  'FALSE',
  'Yes',
  'no',
  'Y',
  'n',
  '1',
  '0',
  ' yes',
  'yes ',
  'oui',
  '✓',
  'on',
  't',
  '-1',
];
const URLS = [
  'https://x.test/a',
  'http://localhost:3000/',
  'HTTPS://EXAMPLE.COM',
  'https://localhost',
  'https://intranet/',
  'ftp://x.test/',
  'javascript:alert(1)',
  'https://',
  'https://exa mple.com',
  'https://bücher.de/x',
  ' https://x.test',
  'www.example.com',
  'https://[::1]/',
];
const TEXTS = [
  'a',
  'abc',
  'abcd',
  '👍🏽👍🏽👍🏽',
  '👍🏽👍🏽👍🏽👍🏽',
  'e\u0301e\u0301e\u0301',
  'GB',
  'gb',
  'GB ',
  'US',
  '=1+1',
  '-x',
];
const ALL = [
  ...new Set([...NUMBERS, ...MORE_NUMBERS, ...AMOUNTS, ...MORE_AMOUNTS, ...EMAILS, ...DATES]),
  ...new Set([
    ...MORE_DATES,
    ...BOOLEANS,
    ...URLS,
    ...TEXTS,
    '"quoted", value',
    'line\nbreak',
    '+44 20 7946 0000',
  ]),
];

/** Every rule set the table runs: each type, the date formats, length, allowed values, and mixes. */
const RULE_SETS: Record<string, ColumnRules> = {
  text: { type: 'text' },
  number: { type: 'number' },
  amount: { type: 'amount' },
  boolean: { type: 'boolean' },
  email: { type: 'email' },
  url: { type: 'url' },
  date: { type: 'date' },
  dateUs: { type: 'date', format: 'MM/DD/YYYY' },
  dateDots: { type: 'date', format: 'D.M.YY' },
  maxLength: { maxLength: 3 },
  allowed: { allowed: ['GB', 'US', 'a', '12', 'true'] },
  manyAllowed: { allowed: Array.from({ length: 12 }, (_, k) => `v${k}`) },
  mixed: { type: 'email', maxLength: 12, allowed: ['a@b.co'] },
  numberLength: { type: 'number', maxLength: 2 },
  amountAllowed: { type: 'amount', allowed: ['(12.50)'] },
};

/** The engine's verdicts on one value: its text check and its byte check. */
function engineVerdicts(rules: ColumnRules, v: string): { text: RuleProblem[]; bytes: RuleProblem[] } {
  const text: RuleProblem[] = [];
  const bytes: RuleProblem[] = [];
  const textRules = compileRules(rules, 'V');
  if (textRules) checkValue(textRules, v, 1, (rule, message) => text.push({ rule, message }));
  const byteRules = compileRules(rules, 'V');
  const buf = Buffer.from(v, 'utf8');
  const out = {
    warn: (_row: number, _column: string, value: string, message: string, rule?: WarningRule) => {
      expect(value).toBe(v);
      bytes.push({ rule: rule as WarningRule, message });
    },
  };
  if (byteRules) checkBytes(byteRules, buf, 0, buf.length, 1, 'V', out);
  return { text, bytes };
}

describe('shared rules = the engine (conformance)', () => {
  it.each(Object.entries(RULE_SETS))(
    '%s: text check, byte check and shared check agree on every value',
    (_, rules) => {
      const differences: string[] = [];
      for (const v of ALL) {
        const shared = checkColumnValue(v, rules);
        const { text, bytes } = engineVerdicts(rules, v);
        const key = JSON.stringify(v);
        if (JSON.stringify(shared) !== JSON.stringify(text))
          differences.push(`${key}: text ${JSON.stringify(text)}`);
        if (JSON.stringify(shared) !== JSON.stringify(bytes))
          differences.push(`${key}: bytes ${JSON.stringify(bytes)}`);
      }
      expect(differences).toEqual([]);
    },
  );

  it('the verdicts the web used to get wrong are the engine’s now', () => {
    const verdict = (v: string, rules: ColumnRules) => checkColumnValue(v, rules).map((p) => p.rule);
    expect(verdict('(12.50)', { type: 'amount' })).toEqual([]);
    expect(verdict('+12.50', { type: 'amount' })).toEqual([]);
    expect(verdict('1.234,56', { type: 'amount' })).toEqual(['type']);
    expect(verdict('a"b@c.co', { type: 'email' })).toEqual(['type']);
    expect(verdict(`${'x'.repeat(243)}@example.com`, { type: 'email' })).toEqual(['type']);
    expect(verdict('https://intranet/', { type: 'url' })).toEqual(['type']);
    expect(verdict(' ', { required: true, type: 'number' })).toEqual(['type']);
    expect(verdict('abcd', { type: 'number', maxLength: 3 })).toEqual(['type', 'maxLength']);
    expect(verdict('', { required: true })).toEqual(['required']);
    expect(verdict('', { type: 'number' })).toEqual([]);
  });

  it('unique: the row that first held the value, on the text and the byte path', () => {
    const values = ['a', 'b', 'a', 'c', 'b', 'a', 'x'.repeat(40), 'x'.repeat(40), 'y'.repeat(40)];
    const text = compileRules({ unique: true }, 'V');
    const bytes = compileRules({ unique: true }, 'V');
    if (!text || !bytes) throw new Error('unique compiles to a check');
    values.forEach((v, k) => {
      const row = k + 1;
      const firstRowWith = (value: string) => values.findIndex((w, j) => j < k && w === value) + 1;
      const shared = checkColumnValue(v, { unique: true }, firstRowWith);
      const fromText: RuleProblem[] = [];
      checkValue(text, v, row, (rule, message) => fromText.push({ rule, message }));
      const fromBytes: RuleProblem[] = [];
      const buf = Buffer.from(v);
      checkBytes(bytes, buf, 0, buf.length, row, 'V', {
        warn: (_r, _c, _v, message, rule) => fromBytes.push({ rule: rule as WarningRule, message }),
      });
      expect(fromText).toEqual(shared);
      expect(fromBytes).toEqual(shared);
    });
  });

  it('rules the engine refuses carry the same message', () => {
    const bad: unknown[] = [
      null,
      { type: 'date', format: 'YYYY-MM' },
      { type: 'date', format: 'DD.MM' },
      { type: 'colour' },
      { maxLength: 0 },
      { maxLength: 1.5 },
      { allowed: 'GB' },
      { allowed: [1] },
    ];
    for (const r of bad) {
      const problem = columnRulesProblem(r, 'V');
      expect(problem).not.toBeNull();
      expect(() => compileRules(r as ColumnRules, 'V')).toThrow(new MappingError(problem as string));
      // The grid checks nothing against rules the server refuses (it never gets them).
      if (r !== null) expect(checkColumnValue('x', r as ColumnRules)).toEqual([]);
    }
    for (const r of Object.values(RULE_SETS)) expect(columnRulesProblem(r, 'V')).toBeNull();
  });

  it.each([true, false])(
    'a whole mapping run (copy and chain, formula protection %s) warns what the shared check says',
    async (protect) => {
      const rules: Record<string, ColumnRules> = {
        Email: { type: 'email', required: true },
        Amount: { type: 'amount', maxLength: 6 },
        Number: { type: 'number', unique: true },
        Date: { type: 'date', format: 'MM/DD/YYYY' },
        Flag: { type: 'boolean', allowed: ['yes', 'no', 'x'] },
        Link: { type: 'url', required: true },
      };
      const columns = Object.keys(rules);
      const rows = ALL.map((_, k) => columns.map((_, c) => ALL[(k + c * 7) % ALL.length]));
      rows.push(columns.map(() => ''));
      const csv = writeCsv([columns, ...rows], { formulaProtection: false, lineEnding: '\n' });
      for (const chain of [false, true]) {
        const pairs = columns.map((c) => ({
          templateColumn: c,
          dataColumn: c,
          ...(chain ? { transform: [{ kind: 'default', value: '' }] } : {}),
        }));
        const { data, stats } = await applyMappingToBuffer(
          Buffer.from(csv),
          columns,
          pairs as MappingPair[],
          {
            templateRules: rules,
            formulaProtection: protect,
            maxWarnings: 1_000_000,
            input: { headerRow: 1 },
          },
        );
        const out = parseCsv(data).rows;
        expect(out).toHaveLength(rows.length);
        const expected: string[] = [];
        out.forEach((cells, k) => {
          cells.forEach((o, c) => {
            const v = protect && o.startsWith("'") && formulaGuardNeeded(o.slice(1)) ? o.slice(1) : o;
            const firstRowWith = (value: string) => {
              for (let j = 0; j < k; j++) {
                const p = out[j][c];
                const w = protect && p.startsWith("'") && formulaGuardNeeded(p.slice(1)) ? p.slice(1) : p;
                if (w === value) return j + 1;
              }
              return 0;
            };
            for (const p of checkColumnValue(v, rules[columns[c]], firstRowWith)) {
              expected.push(`${k + 1} ${columns[c]} ${p.rule}: ${p.message}`);
            }
          });
        });
        const got = stats.warnings
          .filter((w) => w.rule !== undefined)
          .map((w) => `${w.row} ${w.column} ${w.rule}: ${w.reason}`);
        expect(got.sort()).toEqual(expected.sort());
        expect(got.length).toBeGreaterThan(100);
      }
    },
  );

  it('the required message is the one the run writes for an empty required cell', async () => {
    const { stats } = await applyMappingToBuffer(
      Buffer.from('A\n""\n'),
      ['A'],
      [{ templateColumn: 'A', dataColumn: 'A' }] as MappingPair[],
      { templateRules: { A: { required: true } }, input: { headerRow: 1 } },
    );
    expect(stats.warnings).toEqual([
      expect.objectContaining({ row: 1, column: 'A', rule: 'required', reason: REQUIRED_MESSAGE }),
    ]);
  });
});

describe('formula guard and cell writer on text = the writer on bytes', () => {
  const CELLS = [
    '',
    '=1+1',
    '@SUM(A1)',
    '\tx',
    '\rx',
    '\nx',
    '+',
    '-',
    '+12.50',
    '-12.50',
    '-1,5',
    '+44 20 7946 0000',
    '+1 (555) 010-9999',
    '-x',
    '+x',
    '-1+1',
    '--1',
    '-1e3',
    '-1/2',
    '- 1',
    "'=x",
    'plain',
    'a,b',
    'a;b',
    'say "hi"',
    'two\nlines',
    '=a,"b"',
    '-é',
    'é',
    ' =x',
  ];

  it.each(CELLS.map((c) => [c]))('%j', (cell) => {
    const buf = Buffer.from(cell, 'utf8');
    expect(formulaGuardNeeded(cell)).toBe(needsFormulaGuard(buf, 0, buf.length));
    for (const delimiter of [',', ';', '\t', '|'] as const) {
      for (const protect of [true, false]) {
        // writeCsv writes a row of one empty cell as "" (a record); a cell in a row of two is written alone.
        const engine = writeCsv([[cell, 'z']], { delimiter, formulaProtection: protect, lineEnding: '\n' });
        expect(`${csvCellText(cell, delimiter, protect)}${delimiter}z\n`).toBe(engine);
      }
    }
  });
});
