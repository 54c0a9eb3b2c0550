// A run's warnings are of two kinds: notes on how a whole column was read (row 0, e.g. "every date could
// be day-first or month-first; read as month-first") and problems with one cell or row (row ≥ 1). The
// preview and the result screen show the notes as such, never as "values that could not be read".

export interface RunWarning {
  row: number;
  column: string;
  value: string;
  reason: string;
}

export interface SplitWarnings<W extends RunWarning> {
  /** How a column was read (row 0), in the order the engine gave them. */
  columnNotes: W[];
  /** Problems with cells or rows (row ≥ 1), as far as the list goes. */
  cellWarnings: W[];
  /** All cell or row problems, including those past the end of the list. */
  cellCount: number;
}

/** `warningCount` counts both kinds; the notes always fit in the list (the engine makes them first). */
export function splitWarnings<W extends RunWarning>(warnings: W[], warningCount: number): SplitWarnings<W> {
  const columnNotes = warnings.filter((w) => w.row === 0);
  const cellWarnings = warnings.filter((w) => w.row !== 0);
  return { columnNotes, cellWarnings, cellCount: Math.max(0, warningCount - columnNotes.length) };
}
