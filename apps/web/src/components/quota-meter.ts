import { formatRowCount, quotaBar, UNLIMITED } from '@csv-mapper/domain';

// What a usage bar shows (spec §4 colours and width, spec §9 row counts), apart from how it is drawn.

const BAR_COLOURS = { green: 'green.500', red: 'red.500', yellow: 'yellow.500', blue: 'blue.500' } as const;

export interface QuotaMeter {
  /** The colour family: green unlimited, red at or over the limit, yellow above 80 %, else blue. */
  palette: keyof typeof BAR_COLOURS;
  /** The bar's fill token. */
  colour: (typeof BAR_COLOURS)[keyof typeof BAR_COLOURS];
  /** 0–100: the share used, capped; an unlimited bar is 20 % once anything is used. */
  widthPercent: number;
}

export function quotaMeter(used: number, limit: number): QuotaMeter {
  const { color, widthPercent } = quotaBar(used, limit);
  return { palette: color, colour: BAR_COLOURS[color], widthPercent };
}

/** Rows this month, e.g. '1.2k / 50k', '0 / Unlimited' (spec §9 row count display). */
export function rowsUsageText(used: number, limit: number): string {
  return `${formatRowCount(used)} / ${formatRowCount(limit)}`;
}

const counts = new Intl.NumberFormat('en-GB');

/** Saved mappings and the like, counted exactly: '3 / 10', '12 / Unlimited'. */
export function countUsageText(used: number, limit: number): string {
  return `${counts.format(used)} / ${limit === UNLIMITED ? 'Unlimited' : counts.format(limit)}`;
}
