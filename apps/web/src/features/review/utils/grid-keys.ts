// Keyboard model of the review grid (WAI-ARIA grid pattern): one active cell; arrows, Home/End and
// PageUp/PageDown move it; Enter or F2 (or typing) edits it; in an edit, Enter and Tab commit, Escape
// cancels. Pure, so the component only maps its answer to focus and saves.

export interface GridCursor {
  /** Index into the rows the grid shows (not the file's row number). */
  row: number;
  col: number;
  /** The value being typed, or null when not editing. */
  draft: string | null;
}

export interface GridSize {
  rows: number;
  cols: number;
  /** Rows a PageUp/PageDown moves. */
  page: number;
}

export type GridEffect = { type: 'commit'; row: number; col: number; value: string } | { type: 'none' };

export interface GridKeyResult {
  cursor: GridCursor;
  effect: GridEffect;
  /** True when the key was the grid's (the caller prevents the browser's default). */
  handled: boolean;
}

export interface GridKey {
  key: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

const NONE: GridEffect = { type: 'none' };

function clamp(n: number, max: number): number {
  return Math.max(0, Math.min(n, Math.max(0, max - 1)));
}

/** Moves the cursor into the grid's bounds (after rows were deleted or a filter changed). */
export function clampCursor(c: GridCursor, size: GridSize): GridCursor {
  const row = clamp(c.row, size.rows);
  const col = clamp(c.col, size.cols);
  return row === c.row && col === c.col ? c : { ...c, row, col };
}

function moveTo(row: number, col: number, size: GridSize): GridKeyResult {
  return {
    cursor: { row: clamp(row, size.rows), col: clamp(col, size.cols), draft: null },
    effect: NONE,
    handled: true,
  };
}

/** What `key` does to the cursor; `current` is the active cell's value (where an edit starts from). */
export function gridKey(c: GridCursor, key: GridKey, size: GridSize, current: string): GridKeyResult {
  const ignored: GridKeyResult = { cursor: c, effect: NONE, handled: false };
  if (size.rows === 0 || size.cols === 0) return ignored;
  if (c.draft !== null) {
    const commit: GridEffect = { type: 'commit', row: c.row, col: c.col, value: c.draft };
    switch (key.key) {
      case 'Escape':
        return { cursor: { ...c, draft: null }, effect: NONE, handled: true };
      case 'Enter': {
        const next = moveTo(key.shiftKey ? c.row - 1 : c.row + 1, c.col, size);
        return { ...next, effect: commit };
      }
      case 'Tab': {
        const next = moveTo(c.row, key.shiftKey ? c.col - 1 : c.col + 1, size);
        return { ...next, effect: commit };
      }
      default:
        return ignored; // the input edits its own text
    }
  }
  const ctrl = key.ctrlKey || key.metaKey;
  switch (key.key) {
    case 'ArrowUp':
      return moveTo(ctrl ? 0 : c.row - 1, c.col, size);
    case 'ArrowDown':
      return moveTo(ctrl ? size.rows - 1 : c.row + 1, c.col, size);
    case 'ArrowLeft':
      return moveTo(c.row, ctrl ? 0 : c.col - 1, size);
    case 'ArrowRight':
      return moveTo(c.row, ctrl ? size.cols - 1 : c.col + 1, size);
    case 'Home':
      return ctrl ? moveTo(0, 0, size) : moveTo(c.row, 0, size);
    case 'End':
      return ctrl ? moveTo(size.rows - 1, size.cols - 1, size) : moveTo(c.row, size.cols - 1, size);
    case 'PageUp':
      return moveTo(c.row - size.page, c.col, size);
    case 'PageDown':
      return moveTo(c.row + size.page, c.col, size);
    case 'Enter':
    case 'F2':
      return { cursor: { ...c, draft: current }, effect: NONE, handled: true };
    case 'Backspace':
    case 'Delete':
      return { cursor: { ...c, draft: '' }, effect: NONE, handled: true };
    default:
      // A printable character starts an edit that replaces the value, as in a spreadsheet.
      if (key.key.length === 1 && !ctrl && !key.altKey) {
        return { cursor: { ...c, draft: key.key }, effect: NONE, handled: true };
      }
      return ignored;
  }
}
