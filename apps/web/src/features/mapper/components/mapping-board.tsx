import {
  Badge,
  Box,
  Button,
  Card,
  HStack,
  IconButton,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import {
  DndContext,
  DragOverlay,
  KeyboardCode,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  pointerWithin,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type CollisionDetection,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import { useState } from 'react';
import { XIcon } from '../../../components/icons';
import type { MappingPair } from '@csv-mapper/contracts';
import { stepsOf, type TransformValue } from '../utils/transform-chain';
import { SuggestionReason } from './suggestion-reason';
import { TransformPicker } from './transform-picker';

// Step 3 (spec §2/§4): data columns are draggable cards, template columns drop targets. Pointer and
// keyboard both work: Space picks a card up, arrow keys jump from target to target, Space drops, Escape
// cancels. Each template card also has a plain select, so phones and screen readers can map without dragging.

const SAMPLE_HINTS: Record<string, string> = {
  'Full Name': 'John Smith',
  'Email Address': 'john@example.com',
  'Phone Number': '+44 20 7946 0958',
  Organization: 'Acme Ltd',
  'Job Title': 'Finance Manager',
  Department: 'Finance',
  Location: 'London, UK',
};

/** The first non-empty sample value of the column, else the spec's hint by column name, else 'Sample data...'. */
export function sampleFor(column: string, index: number, rows: string[][] | undefined): string {
  const value = rows?.map((r) => r[index]).find((v) => v !== undefined && v.trim() !== '');
  return value ?? SAMPLE_HINTS[column] ?? 'Sample data...';
}

const DATA = 'data:';
/** The column menu's "Leave empty" choice (no header can be this: the upload refuses NUL bytes). */
const LEAVE_EMPTY = '\u0000empty';
const TEMPLATE = 'template:';

/** Arrow keys move the dragged card from one drop target to the next (by on-screen order). */
const jumpBetweenTargets: KeyboardCoordinateGetter = (event, { context }) => {
  const { droppableRects, collisionRect, over } = context;
  const forward = event.code === KeyboardCode.Down || event.code === KeyboardCode.Right;
  const backward = event.code === KeyboardCode.Up || event.code === KeyboardCode.Left;
  if (!forward && !backward) return undefined;
  event.preventDefault();
  const targets = [...droppableRects.entries()].sort(([, a], [, b]) => a.top - b.top || a.left - b.left);
  if (targets.length === 0 || !collisionRect) return undefined;
  const at = over ? targets.findIndex(([id]) => id === over.id) : -1;
  const next =
    at === -1
      ? forward
        ? 0
        : targets.length - 1
      : Math.min(targets.length - 1, Math.max(0, at + (forward ? 1 : -1)));
  const rect = targets[next][1];
  return {
    x: rect.left + rect.width / 2 - collisionRect.width / 2,
    y: rect.top + rect.height / 2 - collisionRect.height / 2,
  };
};

const collision: CollisionDetection = (args) =>
  args.pointerCoordinates ? pointerWithin(args) : closestCenter(args);

function DataCard({ column, sample, mapped }: { column: string; sample: string; mapped: boolean }) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: DATA + column });
  return (
    <Box
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      aria-label={`Data column ${column}${mapped ? ', mapped' : ''}. Press space to pick up.`}
      data-testid="data-card"
      data-column={column}
      borderWidth="1px"
      borderRadius="md"
      bg="bg"
      px="3"
      py="2.5"
      cursor="grab"
      touchAction="none"
      opacity={isDragging ? 0.4 : 1}
      _focusVisible={{ outline: '2px solid', outlineColor: 'blue.solid', outlineOffset: '2px' }}
    >
      <HStack justify="space-between" gap="2">
        <Text fontWeight="medium" truncate>
          {column}
        </Text>
        <Badge colorPalette={mapped ? 'green' : 'gray'} variant="subtle" flexShrink={0}>
          {mapped ? 'Mapped' : 'Unmapped'}
        </Badge>
      </HStack>
      <Text fontSize="xs" color="fg.muted" truncate>
        {sample}
      </Text>
    </Box>
  );
}

interface TemplateCardProps {
  column: string;
  pair: MappingPair | undefined;
  suggested: boolean;
  /** Why the suggester chose this pair (POST /api/mappings/suggest). */
  reason?: string;
  onLeaveEmpty: () => void;
  dataHeaders: string[];
  values: (dataColumn: string) => string[];
  onMap: (dataColumn: string) => void;
  onUnmap: () => void;
  onTransform: (t: TransformValue) => void;
}

function TemplateCard({
  column,
  pair,
  suggested,
  reason,
  onLeaveEmpty,
  dataHeaders,
  values,
  onMap,
  onUnmap,
  onTransform,
}: TemplateCardProps) {
  const { setNodeRef, isOver } = useDroppable({ id: TEMPLATE + column });
  const mapped = pair !== undefined;
  const first = stepsOf(pair?.transform)[0];
  const source = pair?.empty
    ? 'Left empty'
    : first?.kind === 'coalesce'
      ? `First of: ${first.columns.join(', ')}`
      : first?.kind === 'debitCredit'
        ? `${first.debitColumn} − / ${first.creditColumn} +`
        : first?.kind === 'constant'
          ? 'Fixed value'
          : first?.kind === 'combine'
            ? first.pattern || 'Combined columns'
            : pair?.dataColumn;
  return (
    <Box
      ref={setNodeRef}
      data-testid="template-card"
      data-column={column}
      borderWidth="2px"
      borderStyle={mapped ? 'solid' : 'dashed'}
      borderColor={
        isOver
          ? 'blue.solid'
          : pair?.empty
            ? 'border.emphasized'
            : mapped
              ? suggested
                ? 'purple.muted'
                : 'green.muted'
              : 'border'
      }
      bg={isOver ? 'blue.subtle' : 'bg'}
      borderRadius="md"
      px="3"
      py="2.5"
    >
      <HStack justify="space-between" gap="2" mb="1">
        <Text fontWeight="semibold" truncate>
          {column}
        </Text>
        <HStack gap="1" flexShrink={0}>
          {suggested ? (
            <Badge colorPalette="purple" variant="subtle">
              Suggested
            </Badge>
          ) : null}
          <Badge colorPalette={pair?.empty ? 'gray' : mapped ? 'green' : 'red'} variant="subtle">
            {pair?.empty ? 'Left empty' : mapped ? 'Mapped' : 'Required'}
          </Badge>
        </HStack>
      </HStack>
      {mapped ? (
        <>
          <HStack justify="space-between" gap="2" mb={suggested && reason ? '0.5' : '2'}>
            <Text fontSize="sm" color="fg.muted" truncate>
              {pair?.empty ? source : `← ${source}`}
            </Text>
            <IconButton aria-label={`Unmap ${column}`} size="2xs" variant="ghost" onClick={onUnmap}>
              <XIcon />
            </IconButton>
          </HStack>
          {suggested && reason ? <SuggestionReason reason={reason} /> : null}
        </>
      ) : (
        <Text fontSize="sm" color="fg.muted" mb="2">
          Drop a data column here
        </Text>
      )}
      <Stack gap="1.5">
        <NativeSelect.Root size="xs">
          <NativeSelect.Field
            aria-label={`Data column for ${column}`}
            value={
              pair?.empty
                ? LEAVE_EMPTY
                : pair && pair.dataColumn && first?.kind !== 'debitCredit'
                  ? pair.dataColumn
                  : ''
            }
            onChange={(e) => {
              const v = e.currentTarget.value;
              if (v === LEAVE_EMPTY) onLeaveEmpty();
              else if (v) onMap(v);
              else onUnmap();
            }}
          >
            <option value="">Choose a data column…</option>
            <option value={LEAVE_EMPTY}>Leave empty</option>
            {dataHeaders.map((h) => (
              <option key={h} value={h}>
                {h}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <TransformPicker
          templateColumn={column}
          transform={pair?.transform}
          dataHeaders={dataHeaders}
          values={pair?.dataColumn ? values(pair.dataColumn) : []}
          onChange={onTransform}
        />
      </Stack>
    </Box>
  );
}

export interface MappingBoardProps {
  templateHeaders: string[];
  dataHeaders: string[];
  sampleRows: string[][] | undefined;
  /** Each data column's distinct values from the inspection sample, when the upload answer carries them. */
  columnValues?: Record<string, string[]>;
  mappings: MappingPair[];
  suggested: string[];
  /** Why each suggested pair was suggested, by template column. */
  reasons?: Record<string, string>;
  onLeaveEmpty?: (templateColumn: string) => void;
  onMap: (dataColumn: string, templateColumn: string) => void;
  onUnmap: (templateColumn: string) => void;
  onTransform: (templateColumn: string, t: TransformValue) => void;
  onAcceptSuggestions: () => void;
  onClearSuggestions: () => void;
}

export function MappingBoard(props: MappingBoardProps) {
  const { templateHeaders, dataHeaders, sampleRows, mappings, suggested } = props;
  const [active, setActive] = useState<string | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: jumpBetweenTargets }),
  );
  const used = new Set(
    mappings.flatMap((p) => {
      const t = stepsOf(p.transform)[0];
      return t?.kind === 'debitCredit'
        ? [t.debitColumn, t.creditColumn]
        : t?.kind === 'combine'
          ? [...t.pattern.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1])
          : t?.kind === 'coalesce'
            ? t.columns
            : [p.dataColumn];
    }),
  );
  const onDragEnd = (e: DragEndEvent) => {
    setActive(null);
    const from = String(e.active.id);
    const to = e.over ? String(e.over.id) : '';
    if (from.startsWith(DATA) && to.startsWith(TEMPLATE))
      props.onMap(from.slice(DATA.length), to.slice(TEMPLATE.length));
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collision}
      onDragStart={(e) => setActive(String(e.active.id).slice(DATA.length))}
      onDragCancel={() => setActive(null)}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements: {
          onDragStart: ({ active: a }) => `Picked up data column ${String(a.id).slice(DATA.length)}.`,
          onDragOver: ({ over }) =>
            over
              ? `Over template column ${String(over.id).slice(TEMPLATE.length)}.`
              : 'Not over a template column.',
          onDragEnd: ({ active: a, over }) =>
            over
              ? `Mapped ${String(a.id).slice(DATA.length)} to ${String(over.id).slice(TEMPLATE.length)}.`
              : 'Dropped outside the template columns.',
          onDragCancel: () => 'Cancelled.',
        },
        screenReaderInstructions: {
          draggable:
            'Press space to pick up a data column, arrow keys to move between template columns, space to drop, escape to cancel.',
        },
      }}
    >
      {suggested.length > 0 ? (
        <Card.Root mb="4" variant="subtle" colorPalette="purple" bg="purple.subtle">
          <Card.Body py="3" px="4">
            <Stack
              direction={{ base: 'column', sm: 'row' }}
              justify="space-between"
              align={{ sm: 'center' }}
              gap="3"
            >
              <Text fontSize="sm">
                {suggested.length} suggested mapping{suggested.length === 1 ? '' : 's'} filled in from the
                column names and values. Check them, then accept or clear.
              </Text>
              <HStack gap="2" flexShrink={0}>
                <Button size="sm" colorPalette="purple" onClick={props.onAcceptSuggestions}>
                  Accept all
                </Button>
                <Button size="sm" variant="outline" onClick={props.onClearSuggestions}>
                  Clear suggestions
                </Button>
              </HStack>
            </Stack>
          </Card.Body>
        </Card.Root>
      ) : null}
      <SimpleGrid columns={{ base: 1, md: 2 }} gap={{ base: '6', md: '8' }}>
        <Stack gap="2">
          <Text as="h2" fontWeight="semibold" fontSize="lg">
            Data Columns
          </Text>
          {dataHeaders.map((h, i) => (
            <DataCard key={h} column={h} sample={sampleFor(h, i, sampleRows)} mapped={used.has(h)} />
          ))}
        </Stack>
        <Stack gap="2">
          <Text as="h2" fontWeight="semibold" fontSize="lg">
            Template Columns
          </Text>
          {templateHeaders.map((t) => (
            <TemplateCard
              key={t}
              column={t}
              pair={mappings.find((p) => p.templateColumn === t)}
              values={(d) =>
                props.columnValues?.[d] ?? (sampleRows ?? []).map((r) => r[dataHeaders.indexOf(d)] ?? '')
              }
              suggested={suggested.includes(t)}
              reason={props.reasons?.[t]}
              onLeaveEmpty={() => props.onLeaveEmpty?.(t)}
              dataHeaders={dataHeaders}
              onMap={(d) => props.onMap(d, t)}
              onUnmap={() => props.onUnmap(t)}
              onTransform={(tr) => props.onTransform(t, tr)}
            />
          ))}
        </Stack>
      </SimpleGrid>
      <DragOverlay>
        {active ? (
          <Box borderWidth="1px" borderRadius="md" bg="bg" px="3" py="2.5" shadow="lg" cursor="grabbing">
            <Text fontWeight="medium">{active}</Text>
          </Box>
        ) : null}
      </DragOverlay>
    </DndContext>
  );
}
