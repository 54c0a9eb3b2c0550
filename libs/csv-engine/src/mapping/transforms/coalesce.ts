// The coalesce transform: a cell from the first of several data columns that holds something (e.g. Mobile,
// then Home Phone, then Work Phone). Runs per row on the chain's text path, reading only the fields it
// needs; the data column's value is written as it stands (a blank field counts as empty).
import { MappingError } from '../../errors';

/** Checks a coalesce's column list (the HTTP edge has checked its shape; the CLI and recipes have not). */
export function checkCoalesce(columns: unknown, column: string): string[] {
  if (!Array.isArray(columns) || columns.length === 0 || columns.some((c) => typeof c !== 'string' || !c)) {
    throw new MappingError(
      `The coalesce for "${column}" needs the data columns to read, in order, like ["Mobile", "Home Phone"].`,
    );
  }
  return columns as string[];
}

/** The first value among `cols` (data column indexes, in order) that is not blank, else ''. */
export function firstNonEmpty(cols: readonly number[], text: (k: number) => string): string {
  for (let i = 0; i < cols.length; i++) {
    const v = text(cols[i]);
    if (v.length > 0 && v.trim().length > 0) return v;
  }
  return '';
}
