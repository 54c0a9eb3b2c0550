import { Box, chakra, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { UploadLine } from '@csv-mapper/contracts';
import { plural } from '../../../lib/plural';

// The header-row choice of the "Detected" panel: "No header row" and the first records of the file (up to
// 100, preamble included) in a list that scrolls by itself. The choice in use is pressed and marked
// ("header", or "in use" for No header row), the one detection picked is marked "detected". One Tab stop: arrow keys, Home/End and Page Up/Down move
// between the choices, Enter or Space chooses.

export interface HeaderRowPickerProps {
  kind: 'template' | 'data';
  lines: UploadLine[];
  /** The header row in use; 0: none. */
  headerRow: number;
  /** What detection picked (0: none); undefined when the server did not say. */
  detectedHeaderRow?: number;
  busy: boolean;
  onChoose: (headerRow: number) => void;
}

const NO_HEADER = 0;
const PAGE = 8;

export function HeaderRowPicker({
  kind,
  lines,
  headerRow,
  detectedHeaderRow,
  busy,
  onChoose,
}: HeaderRowPickerProps) {
  const listRef = useRef<HTMLOListElement>(null);
  // The choices in order: "No header row" (0), then each record's line.
  const choices = [NO_HEADER, ...lines.map((l) => l.line)];
  const currentIndex = Math.max(0, choices.indexOf(headerRow));
  const [active, setActive] = useState(currentIndex);
  const tabStop = Math.min(active, choices.length - 1);

  // After a re-read, the line in use takes the Tab stop and is scrolled into view inside the list (never
  // the page: the list scrolls by itself).
  useEffect(() => {
    setActive(currentIndex);
    const list = listRef.current;
    const item = list?.querySelector<HTMLElement>(`[data-choice="${choices[currentIndex]}"]`);
    if (!list || !item) return;
    const top = item.offsetTop;
    if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 3);
    }
    // choices and currentIndex follow from these two.
  }, [headerRow, lines]);

  const focusChoice = (index: number) => {
    const i = Math.max(0, Math.min(choices.length - 1, index));
    setActive(i);
    listRef.current?.querySelector<HTMLElement>(`[data-choice="${choices[i]}"]`)?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLOListElement>) => {
    const moves: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      PageDown: active + PAGE,
      PageUp: active - PAGE,
      Home: 0,
      End: choices.length - 1,
    };
    if (!(e.key in moves)) return;
    e.preventDefault();
    focusChoice(moves[e.key]);
  };

  const choose = (line: number) => {
    if (busy || line === headerRow) return;
    onChoose(line);
  };

  const mark = (text: string, color: string) => (
    <Text as="span" flexShrink={0} color={color} fontFamily="body" fontSize="xs">
      {text}
    </Text>
  );

  const item = (index: number, line: number, label: string, content: string, muted?: string) => {
    const current = line === headerRow;
    const detected = line === detectedHeaderRow;
    return (
      <chakra.li key={line} listStyleType="none">
        <chakra.button
          type="button"
          display="flex"
          alignItems="center"
          w="full"
          gap="3"
          px="2"
          py="1.5"
          textAlign="left"
          fontSize="xs"
          fontFamily="mono"
          bg={current ? 'blue.subtle' : 'transparent'}
          _hover={{ bg: current ? 'blue.subtle' : 'bg.muted' }}
          _focusVisible={{ outline: '2px solid', outlineColor: 'blue.solid', outlineOffset: '-2px' }}
          cursor={busy ? 'progress' : 'pointer'}
          tabIndex={index === tabStop ? 0 : -1}
          aria-pressed={current}
          // aria-disabled, not disabled: the focused choice keeps focus while the file is read again.
          aria-disabled={busy || undefined}
          aria-label={`${label}${current ? (line === NO_HEADER ? ', in use' : ', header row in use') : ''}${detected ? ', detected' : ''}`}
          data-choice={line}
          data-testid={line === NO_HEADER ? `${kind}-no-header-row` : `${kind}-line-${line}`}
          onFocus={() => setActive(index)}
          onClick={() => choose(line)}
        >
          <Text as="span" color="fg.muted" minW="7" textAlign="right" flexShrink={0}>
            {line === NO_HEADER ? '–' : line}
          </Text>
          <Text
            as="span"
            truncate
            minW="0"
            flex="1"
            fontWeight={current ? 'semibold' : 'normal'}
            fontFamily={line === NO_HEADER ? 'body' : 'mono'}
          >
            {content}
            {muted ? (
              <Text as="span" color="fg.muted" fontWeight="normal" display={{ base: 'none', sm: 'inline' }}>
                {muted}
              </Text>
            ) : null}
          </Text>
          {current ? mark(line === NO_HEADER ? 'in use' : 'header', 'blue.fg') : null}
          {detected ? mark('detected', 'fg.muted') : null}
        </chakra.button>
      </chakra.li>
    );
  };

  return (
    <Box mt="3">
      <Text fontSize="xs" color="fg.muted" mb="1" id={`${kind}-lines-label`}>
        {`Header row: choose the line that holds the column names (the file's first ${plural(lines.length, 'line')}), or "No header row" when the file starts with data.`}
      </Text>
      <chakra.ol
        ref={listRef}
        position="relative"
        maxH="16rem"
        overflowY="auto"
        overscrollBehavior="contain"
        borderWidth="1px"
        borderRadius="md"
        aria-labelledby={`${kind}-lines-label`}
        data-testid={`${kind}-header-rows`}
        onKeyDown={onKeyDown}
      >
        {item(
          0,
          NO_HEADER,
          'No header row',
          'No header row',
          ': every line is data, columns Column 1, Column 2…',
        )}
        {lines.map((l, k) =>
          item(k + 1, l.line, `Line ${l.line}: ${l.cells.join(', ')}`, l.cells.join(' · ')),
        )}
      </chakra.ol>
    </Box>
  );
}
