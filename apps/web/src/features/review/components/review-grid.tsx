import { Box, Text } from '@chakra-ui/react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { clampCursor, gridKey, type GridCursor } from '../utils/grid-keys';
import type { ReviewIssue } from '../utils/review-model';
import type { RuleProblem } from '@csv-mapper/rules';

// The review grid: a WAI-ARIA grid of the rows with problems, virtualised (only the rows in view are in the
// DOM), keyboard first. Focus stays on the grid element and aria-activedescendant names the active cell,
// so moving never depends on a cell being mounted; an edit puts a text box in the cell.

const ROW_HEIGHT = 36;
const ROW_HEADER_WIDTH = 96;
const COLUMN_WIDTH = 200;

/** One row as the grid shows it; `cells[i]` undefined means the value is not known (a paged issue list). */
export interface GridRow {
  row: number;
  cells: (string | undefined)[];
  issues: ReviewIssue[];
  edited?: boolean[];
}

export interface ReviewGridProps {
  columns: string[];
  rowCount: number;
  /** The row at this index of the shown list; undefined while it loads. */
  getRow: (index: number) => GridRow | undefined;
  /** Called when rows near `lastIndex` are shown (to page in more). */
  onRangeShown?: (lastIndex: number) => void;
  check: (index: number, col: number, value: string) => RuleProblem | null;
  onCommit: (index: number, col: number, value: string) => void;
  selected: ReadonlySet<number>;
  onToggleSelect: (row: number) => void;
  onActiveChange?: (index: number, col: number) => void;
  /** Changes when what is shown changes (filter, edits), to re-render. */
  version: number;
  label: string;
  height?: string;
}

export function ReviewGrid({
  columns,
  rowCount,
  getRow,
  onRangeShown,
  check,
  onCommit,
  selected,
  onToggleSelect,
  onActiveChange,
  version,
  label,
  height = '480px',
}: ReviewGridProps) {
  const idBase = useId();
  const scrollRef = useRef<HTMLDivElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [cursor, setCursor] = useState<GridCursor>({ row: 0, col: 0, draft: null });
  const size = { rows: rowCount, cols: columns.length, page: 10 };
  const active = clampCursor(cursor, size);

  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const last = items.length > 0 ? items[items.length - 1].index : -1;

  useEffect(() => {
    if (last >= 0) onRangeShown?.(last);
  }, [last, onRangeShown]);

  // User Timing mark for the first data rows on screen (read by the scale test and in DevTools).
  const firstShown = items.length > 0 && getRow(items[0].index) !== undefined;
  const marked = useRef(false);
  useEffect(() => {
    if (!firstShown || marked.current) return;
    marked.current = true;
    performance.mark('review-grid:first-rows');
  }, [firstShown]);

  useEffect(() => {
    onActiveChange?.(active.row, active.col);
  }, [active.row, active.col, onActiveChange]);

  const isEditing = active.draft !== null;
  useLayoutEffect(() => {
    const el = inputRef.current;
    if (!isEditing || !el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, [isEditing]);

  const cellId = (index: number, col: number) => `${idBase}-r${index}-c${col}`;
  const currentValue = (index: number, col: number) => getRow(index)?.cells[col] ?? '';

  const go = (next: GridCursor, focusGrid: boolean) => {
    setCursor(next);
    if (next.row !== active.row) virtualizer.scrollToIndex(next.row, { align: 'auto' });
    if (focusGrid) gridRef.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.target !== gridRef.current && e.target !== inputRef.current) return;
    if (active.draft === null && e.key === ' ' && e.shiftKey) {
      const row = getRow(active.row);
      if (row) onToggleSelect(row.row);
      e.preventDefault();
      return;
    }
    const res = gridKey(active, e, size, currentValue(active.row, active.col));
    if (!res.handled) return;
    e.preventDefault();
    if (res.effect.type === 'commit') onCommit(res.effect.row, res.effect.col, res.effect.value);
    go(res.cursor, active.draft !== null);
  };

  const failure = active.draft !== null ? check(active.row, active.col, active.draft) : null;
  const width = ROW_HEADER_WIDTH + columns.length * COLUMN_WIDTH;
  const activeId = rowCount > 0 ? cellId(active.row, active.col) : undefined;

  return (
    <Box
      ref={scrollRef}
      height={height}
      overflow="auto"
      borderWidth="1px"
      borderRadius="md"
      bg="bg"
      data-testid="review-grid-scroll"
      data-version={version}
    >
      <Box
        ref={gridRef}
        role="grid"
        aria-label={label}
        aria-rowcount={rowCount + 1}
        aria-colcount={columns.length + 1}
        aria-activedescendant={active.draft === null ? activeId : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
        width={`${width}px`}
        minW="100%"
        position="relative"
        fontSize="sm"
        outline="none"
        css={{
          '&:focus-visible [data-active=true]': {
            outline: '2px solid',
            outlineColor: 'var(--chakra-colors-blue-solid)',
            outlineOffset: '-2px',
          },
        }}
      >
        <Box
          role="row"
          aria-rowindex={1}
          display="flex"
          position="sticky"
          top="0"
          zIndex="1"
          bg="bg.muted"
          borderBottomWidth="1px"
          fontWeight="semibold"
        >
          <Box
            role="columnheader"
            aria-colindex={1}
            width={`${ROW_HEADER_WIDTH}px`}
            flexShrink={0}
            px="2"
            py="2"
          >
            Row
          </Box>
          {columns.map((c, i) => (
            <Box
              key={c}
              role="columnheader"
              aria-colindex={i + 2}
              width={`${COLUMN_WIDTH}px`}
              flexShrink={0}
              px="2"
              py="2"
              truncate
              title={c}
            >
              {c}
            </Box>
          ))}
        </Box>
        <Box role="rowgroup" position="relative" height={`${virtualizer.getTotalSize()}px`}>
          {items.map((item) => {
            const row = getRow(item.index);
            const isSelected = row ? selected.has(row.row) : false;
            return (
              <Box
                key={item.key}
                role="row"
                aria-rowindex={item.index + 2}
                aria-selected={isSelected}
                data-row={row?.row}
                display="flex"
                position="absolute"
                top="0"
                left="0"
                width="100%"
                height={`${ROW_HEIGHT}px`}
                transform={`translateY(${item.start}px)`}
                borderBottomWidth="1px"
                bg={isSelected ? 'blue.subtle' : undefined}
              >
                <Box
                  role="rowheader"
                  aria-colindex={1}
                  width={`${ROW_HEADER_WIDTH}px`}
                  flexShrink={0}
                  px="2"
                  display="flex"
                  alignItems="center"
                  gap="2"
                  color="fg.muted"
                >
                  {row ? (
                    <>
                      <input
                        type="checkbox"
                        tabIndex={-1}
                        aria-label={`Select row ${row.row}`}
                        checked={isSelected}
                        onChange={() => onToggleSelect(row.row)}
                      />
                      {row.row.toLocaleString('en-GB')}
                    </>
                  ) : (
                    'Loading…'
                  )}
                </Box>
                {columns.map((column, col) => {
                  const isActive = item.index === active.row && col === active.col;
                  const issues = row?.issues.filter((i) => i.column === column) ?? [];
                  const value = row?.cells[col];
                  const editing = isActive && active.draft !== null;
                  const message = issues.map((i) => i.message).join('; ');
                  return (
                    <Box
                      key={column}
                      id={cellId(item.index, col)}
                      role="gridcell"
                      aria-colindex={col + 2}
                      aria-invalid={issues.length > 0 || undefined}
                      aria-description={message || undefined}
                      data-active={isActive}
                      data-problem={issues.length > 0 || undefined}
                      data-edited={row?.edited?.[col] || undefined}
                      width={`${COLUMN_WIDTH}px`}
                      flexShrink={0}
                      px="2"
                      display="flex"
                      alignItems="center"
                      position="relative"
                      bg={issues.length > 0 ? 'red.subtle' : row?.edited?.[col] ? 'green.subtle' : undefined}
                      color={value === undefined ? 'fg.subtle' : undefined}
                      title={message || value}
                      onClick={() => go({ row: item.index, col, draft: null }, true)}
                      onDoubleClick={() => go({ row: item.index, col, draft: value ?? '' }, false)}
                    >
                      {editing ? (
                        <input
                          ref={inputRef}
                          aria-label={`${column}, row ${row?.row ?? ''}`}
                          aria-invalid={failure !== null}
                          aria-describedby={`${idBase}-check`}
                          value={active.draft ?? ''}
                          onChange={(e) => setCursor({ ...active, draft: e.target.value })}
                          onKeyDown={onKeyDown}
                          onBlur={() => setCursor((c) => (c.draft === null ? c : { ...c, draft: null }))}
                          style={{
                            width: '100%',
                            height: '28px',
                            padding: '0 6px',
                            borderRadius: '4px',
                            border: `2px solid ${failure ? 'var(--chakra-colors-red-solid)' : 'var(--chakra-colors-blue-solid)'}`,
                            background: 'var(--chakra-colors-bg)',
                            color: 'inherit',
                            font: 'inherit',
                          }}
                        />
                      ) : (
                        <Text truncate>{value === undefined ? '…' : value === '' ? '\u00a0' : value}</Text>
                      )}
                    </Box>
                  );
                })}
              </Box>
            );
          })}
        </Box>
      </Box>
      <Box
        id={`${idBase}-check`}
        role="status"
        aria-live="polite"
        position="sticky"
        left="0"
        bottom="0"
        px="3"
        py={active.draft !== null ? '1.5' : '0'}
        fontSize="sm"
        bg={failure ? 'red.subtle' : 'bg.muted'}
        color={failure ? 'red.fg' : 'fg.muted'}
        data-testid="review-grid-check"
      >
        {active.draft === null ? '' : failure ? failure.message : 'Looks right. Enter saves, Escape cancels.'}
      </Box>
    </Box>
  );
}
