import { describe, expect, it } from '@jest/globals';
import { countUsageText, quotaMeter, rowsUsageText } from './quota-meter';

// Spec §4 quota bar colours and width; spec §9 row count display.

describe('quota bar', () => {
  it('is green and empty on an unlimited plan with no usage', () => {
    expect(quotaMeter(0, -1)).toEqual({ palette: 'green', colour: 'green.500', widthPercent: 0 });
  });

  it('is green and a fifth wide on an unlimited plan once anything is used', () => {
    expect(quotaMeter(5_000_000, -1)).toMatchObject({ palette: 'green', widthPercent: 20 });
  });

  it('is blue up to 80 % of the limit', () => {
    expect(quotaMeter(40, 100)).toMatchObject({ palette: 'blue', widthPercent: 40 });
    expect(quotaMeter(80, 100)).toMatchObject({ palette: 'blue', widthPercent: 80 });
  });

  it('turns yellow above 80 %', () => {
    expect(quotaMeter(81, 100)).toMatchObject({ palette: 'yellow', colour: 'yellow.500', widthPercent: 81 });
  });

  it('turns red at the limit and stays full (never wider than the track) above it', () => {
    expect(quotaMeter(100, 100)).toMatchObject({ palette: 'red', colour: 'red.500', widthPercent: 100 });
    expect(quotaMeter(250, 100)).toMatchObject({ palette: 'red', widthPercent: 100 });
  });

  it('treats a limit of 0 as reached', () => {
    expect(quotaMeter(0, 0)).toMatchObject({ palette: 'red', widthPercent: 100 });
  });
});

describe('row count display', () => {
  it('shows counts under 1000 exactly', () => {
    expect(rowsUsageText(0, 999)).toBe('0 / 999');
  });

  it('shows thousands as k and millions as M, with one decimal only when needed', () => {
    expect(rowsUsageText(1_200, 50_000)).toBe('1.2k / 50k');
    expect(rowsUsageText(250_000, 2_000_000)).toBe('250k / 2M');
    expect(rowsUsageText(1_500_000, 20_000_000)).toBe('1.5M / 20M');
  });

  it('shows an unlimited allowance as Unlimited', () => {
    expect(rowsUsageText(12, -1)).toBe('12 / Unlimited');
  });

  it('counts saved mappings exactly, with separators, and Unlimited for -1', () => {
    expect(countUsageText(1, 1)).toBe('1 / 1');
    expect(countUsageText(1234, -1)).toBe('1,234 / Unlimited');
  });
});
