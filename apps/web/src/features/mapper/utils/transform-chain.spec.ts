import { describe, expect, it } from '@jest/globals';
import { cleanRules, describeRules } from './template-rules';
import {
  distinctValues,
  fillsWithoutDataColumn,
  fromSteps,
  moveStep,
  patternColumns,
  regexError,
  stepsOf,
  type Step,
} from './transform-chain';

describe('transform chains', () => {
  const trim: Step = { kind: 'trim' };
  const slug: Step = { kind: 'slug' };
  const cut: Step = { kind: 'truncate', length: 10 };

  it('one step is written as itself, several as a list in order, none as nothing', () => {
    expect(fromSteps([])).toBeUndefined();
    expect(fromSteps([slug])).toEqual(slug);
    expect(fromSteps([trim, slug])).toEqual([trim, slug]);
    expect(stepsOf(undefined)).toEqual([]);
    expect(stepsOf(slug)).toEqual([slug]);
    expect(stepsOf([trim, cut])).toEqual([trim, cut]);
  });

  it('moves a step earlier or later; a move off the ends changes nothing', () => {
    expect(moveStep([trim, slug, cut], 2, 1)).toEqual([trim, cut, slug]);
    expect(moveStep([trim, slug, cut], 0, 1)).toEqual([slug, trim, cut]);
    const same = [trim, slug];
    expect(moveStep(same, 0, -1)).toBe(same);
    expect(moveStep(same, 1, 2)).toBe(same);
  });

  it('a value table starts from the distinct non-empty values, at most 200', () => {
    expect(distinctValues(['Y', 'N', 'Y', '', ' ', 'n'])).toEqual(['Y', 'N', 'n']);
    const many = Array.from({ length: 500 }, (_, i) => `v${i}`);
    expect(distinctValues(many)).toHaveLength(200);
  });

  it('reads the columns a combine pattern names; combine, constant and debit + credit need no data column', () => {
    expect(patternColumns('{First Name} {Last Name}')).toEqual(['First Name', 'Last Name']);
    expect(fillsWithoutDataColumn({ kind: 'combine', pattern: '{A}' })).toBe(true);
    expect(fillsWithoutDataColumn([{ kind: 'combine', pattern: '{A}' }, trim])).toBe(true);
    expect(fillsWithoutDataColumn([trim, slug])).toBe(false);
    expect(fillsWithoutDataColumn(undefined)).toBe(false);
  });

  it('names a regular expression the browser cannot compile', () => {
    expect(regexError('^\\d+$')).toBeNull();
    expect(regexError('(')).toMatch(/./);
  });
});

describe('template column rules', () => {
  it('drops unset fields and describes what is left', () => {
    expect(cleanRules({ required: false, allowed: [], maxLength: undefined })).toBeUndefined();
    expect(cleanRules({ type: 'text', format: 'YYYY', maxLength: 100 })).toEqual({
      type: 'text',
      maxLength: 100,
    });
    expect(describeRules({ required: true, type: 'date', format: 'DD/MM/YYYY', unique: true })).toBe(
      'required · date DD/MM/YYYY · unique',
    );
  });
});
