import { describe, expect, it } from '@jest/globals';
import { clampCursor, gridKey, type GridCursor } from './grid-keys';

const size = { rows: 10, cols: 4, page: 3 };
const at = (row: number, col: number, draft: string | null = null): GridCursor => ({ row, col, draft });

describe('review grid keyboard', () => {
  it('arrows move one cell and stop at the edges', () => {
    expect(gridKey(at(0, 0), { key: 'ArrowDown' }, size, '').cursor).toEqual(at(1, 0));
    expect(gridKey(at(0, 0), { key: 'ArrowRight' }, size, '').cursor).toEqual(at(0, 1));
    expect(gridKey(at(0, 0), { key: 'ArrowUp' }, size, '').cursor).toEqual(at(0, 0));
    expect(gridKey(at(0, 0), { key: 'ArrowLeft' }, size, '').cursor).toEqual(at(0, 0));
    expect(gridKey(at(9, 3), { key: 'ArrowDown' }, size, '').cursor).toEqual(at(9, 3));
    expect(gridKey(at(9, 3), { key: 'ArrowRight' }, size, '').cursor).toEqual(at(9, 3));
  });

  it('Home/End go to the row ends, with Ctrl to the grid corners; pages move by the page size', () => {
    expect(gridKey(at(4, 2), { key: 'Home' }, size, '').cursor).toEqual(at(4, 0));
    expect(gridKey(at(4, 2), { key: 'End' }, size, '').cursor).toEqual(at(4, 3));
    expect(gridKey(at(4, 2), { key: 'End', ctrlKey: true }, size, '').cursor).toEqual(at(9, 3));
    expect(gridKey(at(4, 2), { key: 'Home', ctrlKey: true }, size, '').cursor).toEqual(at(0, 0));
    expect(gridKey(at(4, 2), { key: 'PageDown' }, size, '').cursor).toEqual(at(7, 2));
    expect(gridKey(at(8, 2), { key: 'PageDown' }, size, '').cursor).toEqual(at(9, 2));
    expect(gridKey(at(1, 2), { key: 'PageUp' }, size, '').cursor).toEqual(at(0, 2));
  });

  it('Enter starts an edit from the current value; typing a character replaces it', () => {
    expect(gridKey(at(2, 1), { key: 'Enter' }, size, '12.5O').cursor).toEqual(at(2, 1, '12.5O'));
    expect(gridKey(at(2, 1), { key: 'F2' }, size, 'x').cursor).toEqual(at(2, 1, 'x'));
    expect(gridKey(at(2, 1), { key: '7' }, size, '12.5O').cursor).toEqual(at(2, 1, '7'));
    expect(gridKey(at(2, 1), { key: 'Delete' }, size, 'abc').cursor).toEqual(at(2, 1, ''));
    // Shortcuts with Ctrl are the browser's, not an edit.
    expect(gridKey(at(2, 1), { key: 'c', ctrlKey: true }, size, 'abc').handled).toBe(false);
  });

  it('in an edit, arrows belong to the text box and Escape cancels without saving', () => {
    const editing = at(2, 1, '12.50');
    const arrow = gridKey(editing, { key: 'ArrowLeft' }, size, '12.5O');
    expect(arrow.handled).toBe(false);
    expect(arrow.cursor).toBe(editing);
    const esc = gridKey(editing, { key: 'Escape' }, size, '12.5O');
    expect(esc.cursor).toEqual(at(2, 1));
    expect(esc.effect).toEqual({ type: 'none' });
  });

  it('Enter commits and moves down (Shift+Enter up); Tab commits and moves right', () => {
    const enter = gridKey(at(2, 1, '12.50'), { key: 'Enter' }, size, '12.5O');
    expect(enter.effect).toEqual({ type: 'commit', row: 2, col: 1, value: '12.50' });
    expect(enter.cursor).toEqual(at(3, 1));
    expect(gridKey(at(2, 1, 'a'), { key: 'Enter', shiftKey: true }, size, '').cursor).toEqual(at(1, 1));
    const tab = gridKey(at(2, 1, 'a'), { key: 'Tab' }, size, '');
    expect(tab.effect).toEqual({ type: 'commit', row: 2, col: 1, value: 'a' });
    expect(tab.cursor).toEqual(at(2, 2));
    // The last row commits and stays.
    expect(gridKey(at(9, 0, 'z'), { key: 'Enter' }, size, '').cursor).toEqual(at(9, 0));
  });

  it('an empty grid ignores keys; a cursor past the end is pulled back in after rows go', () => {
    expect(gridKey(at(0, 0), { key: 'ArrowDown' }, { rows: 0, cols: 3, page: 5 }, '').handled).toBe(false);
    expect(clampCursor(at(12, 7), size)).toEqual(at(9, 3));
    const inside = at(3, 3);
    expect(clampCursor(inside, size)).toBe(inside);
  });
});
