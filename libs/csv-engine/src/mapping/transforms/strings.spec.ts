// Issue 22's text transforms: examples and properties (fast-check).
import fc from 'fast-check';
import { MappingError } from '../../errors';
import { FC_RUNS } from '../../test-helpers';
import {
  combineValues,
  compileMapValues,
  compileReplace,
  compileSplit,
  defaultValue,
  graphemeLength,
  parseCombinePattern,
  slugify,
  splitCityStateZip,
  splitPersonName,
  truncateText,
} from './strings';

/** True when s has no lone surrogate (valid UTF-16). */
function wellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

describe('combine', () => {
  const p = parseCombinePattern('{First Name} {Last Name}', 'Name');

  it('joins columns with the pattern and drops blank parts with their separator', () => {
    expect(p).toEqual({ lits: ['', ' ', ''], cols: ['First Name', 'Last Name'] });
    expect(combineValues(p, ['Ana', 'Cruz'])).toBe('Ana Cruz');
    expect(combineValues(p, ['', 'Cruz'])).toBe('Cruz');
    expect(combineValues(p, ['Ana', '  '])).toBe('Ana');
    expect(combineValues(p, ['', ''])).toBe('');
    const addr = parseCombinePattern('{City}, {State} {Zip}', 'Address');
    expect(combineValues(addr, ['Springfield', '', '62704'])).toBe('Springfield, 62704');
    expect(combineValues(addr, ['', 'IL', '62704'])).toBe('IL 62704');
    expect(combineValues(parseCombinePattern('Dr. {A} {B}', 'x'), [' Ana ', 'Cruz'])).toBe('Dr. Ana Cruz');
    expect(combineValues(parseCombinePattern('{A} a  b {B}', 'x'), ['x', 'y'])).toBe('x a  b y');
  });

  it('reads {{ and }} as braces and refuses broken patterns', () => {
    expect(parseCombinePattern('{{{A}}}', 'x')).toEqual({ lits: ['{', '}'], cols: ['A'] });
    expect(() => parseCombinePattern('{A', 'x')).toThrow(MappingError);
    expect(() => parseCombinePattern('A}', 'x')).toThrow(MappingError);
    expect(() => parseCombinePattern('no columns', 'x')).toThrow(/names no column/);
    expect(() => parseCombinePattern('{}', 'x')).toThrow(MappingError);
  });

  it('property: combine then split by the same separator gives the parts back', () => {
    const part = fc
      .string({ unit: fc.constantFrom('a', 'B', 'é', '😀', '-', '1', ' '), minLength: 1, maxLength: 6 })
      .map((s) => s.trim())
      .filter((s) => s !== '');
    fc.assert(
      fc.property(
        fc.array(part, { minLength: 1, maxLength: 5 }),
        fc.constantFrom(',', ';', '|', ' / '),
        (parts, sep) => {
          const cols = parts.map((_, k) => `c${k}`);
          const pattern = parseCombinePattern(cols.map((c) => `{${c}}`).join(sep), 'x');
          const combined = combineValues(pattern, parts);
          parts.forEach((expected, k) => {
            expect(
              compileSplit({ kind: 'split', separator: sep.trim() || sep, part: k }, 'x')(combined),
            ).toBe(expected);
            const fromEnd = k - parts.length;
            expect(
              compileSplit({ kind: 'split', separator: sep.trim() || sep, part: fromEnd }, 'x')(combined),
            ).toBe(expected);
          });
        },
      ),
      { numRuns: FC_RUNS },
    );
  });
});

describe('split', () => {
  it('by separator: part from 0, negative from the end, missing part empty', () => {
    const at = (part: number) => compileSplit({ kind: 'split', separator: ',', part }, 'x');
    expect(at(0)('a, b ,c')).toBe('a');
    expect(at(1)('a, b ,c')).toBe('b');
    expect(at(-1)('a, b ,c')).toBe('c');
    expect(at(5)('a,b')).toBe('');
    expect(at(-3)('a,b')).toBe('');
  });

  it('person names: titles and suffixes dropped, particles kept with the last name, "Last, First" read', () => {
    expect(splitPersonName('Dr. Ana María de la Cruz Jr.')).toEqual({
      first: 'Ana María',
      last: 'de la Cruz',
    });
    expect(splitPersonName('John Smith')).toEqual({ first: 'John', last: 'Smith' });
    expect(splitPersonName('Ludwig van Beethoven')).toEqual({ first: 'Ludwig', last: 'van Beethoven' });
    expect(splitPersonName('Smith, John Paul')).toEqual({ first: 'John Paul', last: 'Smith' });
    expect(splitPersonName('John Smith, Jr.')).toEqual({ first: 'John', last: 'Smith' });
    expect(splitPersonName('Madonna')).toEqual({ first: 'Madonna', last: '' });
    expect(splitPersonName('  ')).toEqual({ first: '', last: '' });
    const last = compileSplit({ kind: 'split', preset: 'personName', part: 'last' }, 'x');
    expect(last('Mrs Jane  Doe')).toBe('Doe');
    expect(() => compileSplit({ kind: 'split', preset: 'personName', part: 'zip' }, 'x')).toThrow(
      MappingError,
    );
  });

  it('city, state and ZIP', () => {
    expect(splitCityStateZip('Springfield, IL 62704')).toEqual({
      city: 'Springfield',
      state: 'IL',
      zip: '62704',
    });
    expect(splitCityStateZip('New York NY 10001-1234')).toEqual({
      city: 'New York',
      state: 'NY',
      zip: '10001-1234',
    });
    expect(splitCityStateZip('Austin, tx')).toEqual({ city: 'Austin', state: 'TX', zip: '' });
    expect(splitCityStateZip('Somewhere')).toEqual({ city: 'Somewhere', state: '', zip: '' });
    expect(compileSplit({ kind: 'split', preset: 'cityStateZip', part: 'zip' }, 'x')('Reno, NV 89501')).toBe(
      '89501',
    );
  });
});

describe('mapValues and default', () => {
  it('maps exact values; otherwise keep, blank or a fixed value', () => {
    const table = { Y: 'TRUE', N: 'FALSE', 'United Kingdom': 'GB' };
    const keep = compileMapValues({ kind: 'mapValues', table }, 'x');
    expect(keep('Y')).toBe('TRUE');
    expect(keep(' United Kingdom ')).toBe('GB');
    expect(keep('y')).toBe('y');
    expect(keep('Maybe')).toBe('Maybe');
    const ci = compileMapValues({ kind: 'mapValues', table, caseInsensitive: true, otherwise: 'blank' }, 'x');
    expect(ci('y')).toBe('TRUE');
    expect(ci('united kingdom')).toBe('GB');
    expect(ci('Maybe')).toBe('');
    const fixed = compileMapValues({ kind: 'mapValues', table, otherwise: { value: 'OTHER' } }, 'x');
    expect(fixed('Maybe')).toBe('OTHER');
    expect(fixed('')).toBe('');
    expect(() =>
      compileMapValues({ kind: 'mapValues', table, otherwise: 'drop' as unknown as 'keep' }, 'x'),
    ).toThrow(MappingError);
  });

  it('default fills empty and blank cells only', () => {
    expect(defaultValue('', 'n/a')).toBe('n/a');
    expect(defaultValue('  ', 'n/a')).toBe('n/a');
    expect(defaultValue('x', 'n/a')).toBe('x');
  });
});

describe('slug', () => {
  it('lowercase, ASCII-folded, hyphens', () => {
    expect(slugify('Blue Mug')).toBe('blue-mug');
    expect(slugify('  Crème Brûlée — 2 for £5!  ')).toBe('creme-brulee-2-for-5');
    expect(slugify('Straße & Æsir')).toBe('strasse-and-aesir');
    expect(slugify('😀')).toBe('');
  });

  it('property: slug is idempotent and only [a-z0-9-] without leading, trailing or double hyphens', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), (a, b) => {
        for (const v of [a, b, a + b]) {
          const s = slugify(v);
          expect(slugify(s)).toBe(s);
          expect(s).toMatch(/^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$/);
        }
      }),
      { numRuns: FC_RUNS },
    );
  });
});

describe('truncate', () => {
  it('counts user-perceived characters and never splits one', () => {
    expect(truncateText('Hello world', 5)).toBe('Hello');
    expect(truncateText('😀😀😀', 2)).toBe('😀😀');
    expect(truncateText('👨‍👩‍👧x', 1)).toBe('👨‍👩‍👧');
    expect(truncateText('e\u0301e\u0301', 1)).toBe('e\u0301');
    expect(graphemeLength('👨‍👩‍👧😀é')).toBe(3);
    expect(truncateText('short', 10)).toBe('short');
  });

  it('property: never invalid UTF-16, never longer than asked, a prefix of the input', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.constantFrom('a', 'é', 'e\u0301', '😀', '👨‍👩‍👧', '🇬🇧', '中', ' '), { maxLength: 30 })
          .map((a) => a.join('')),
        fc.integer({ min: 1, max: 40 }),
        (v, n) => {
          const cut = truncateText(v, n);
          expect(wellFormed(cut)).toBe(true);
          expect(v.startsWith(cut)).toBe(true);
          expect(graphemeLength(cut)).toBe(Math.min(n, graphemeLength(v)));
        },
      ),
      { numRuns: FC_RUNS },
    );
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 30 }).filter(wellFormed),
        fc.integer({ min: 1, max: 30 }),
        (v, n) => {
          expect(wellFormed(truncateText(v, n))).toBe(true);
        },
      ),
      { numRuns: FC_RUNS },
    );
  });
});

describe('replace', () => {
  it('literal: every occurrence', () => {
    expect(compileReplace('-', '/', false, 'x')('2024-01-02')).toBe('2024/01/02');
    expect(compileReplace('.*', '!', false, 'x')('a.*b')).toBe('a!b');
  });

  it('regex: groups in the replacement; backreferences and lookaround refused with a reason', () => {
    expect(compileReplace('(\\w+)@(\\w+)', '$2:$1', true, 'x')('ana@ex')).toBe('ex:ana');
    expect(compileReplace('\\s+', ' ', true, 'x')('a  \t b')).toBe('a b');
    expect(() => compileReplace('(a)\\1', '', true, 'Email')).toThrow(/"Email".*Backreferences/);
    expect(() => compileReplace('a(?=b)', '', true, 'x')).toThrow(MappingError);
    expect(() => compileReplace('(', '', true, 'x')).toThrow(MappingError);
  });

  it('a pattern that makes a backtracking engine explode runs in linear time', () => {
    // (a+)+$ on "aaaa…b" takes exponential time in a backtracking engine (2^40 paths here); the
    // linear-time engine answers at once. No timing assertion: the test would hang, not pass slowly.
    const f = compileReplace('(a+)+$', 'X', true, 'x');
    const hostile = `${'a'.repeat(40)}b`;
    expect(f(hostile)).toBe(hostile);
    expect(f('a'.repeat(10000))).toBe('X');
    expect(compileReplace('(x+x+)+y', 'Z', true, 'x')('x'.repeat(5000))).toBe('x'.repeat(5000));
  });
});
