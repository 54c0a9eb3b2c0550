import { HStack, IconButton, NativeSelect, Stack, Text } from '@chakra-ui/react';
import type { CoalesceTransform } from '@csv-mapper/contracts';
import { XIcon } from '../../../components/icons';

// The coalesce step's options (issue 27): the data columns to take the first non-empty value from, in order
// ("Mobile, then Home Phone, then Work Phone"). Plain selects, so it works the same by touch and keyboard.

export interface CoalesceEditorProps {
  templateColumn: string;
  step: CoalesceTransform;
  dataHeaders: string[];
  onChange: (t: CoalesceTransform) => void;
}

/** A new coalesce: the first two data columns, to be changed. */
export function newCoalesce(dataHeaders: string[]): CoalesceTransform {
  return { kind: 'coalesce', columns: dataHeaders.slice(0, 2) };
}

export function CoalesceEditor({ templateColumn, step, dataHeaders, onChange }: CoalesceEditorProps) {
  const columns = step.columns;
  const set = (next: string[]) => onChange({ kind: 'coalesce', columns: next });
  const left = dataHeaders.filter((h) => !columns.includes(h));
  return (
    <Stack gap="1" data-testid="coalesce-editor">
      <Text fontSize="xs" color="fg.muted">
        First non-empty value of, in order:
      </Text>
      {columns.map((c, i) => (
        <HStack key={`${c}-${i}`} gap="1">
          <NativeSelect.Root size="xs" flex="1" minW="0">
            <NativeSelect.Field
              aria-label={`Column ${i + 1} of ${templateColumn}'s first non-empty`}
              value={c}
              onChange={(e) => set(columns.map((x, j) => (j === i ? e.currentTarget.value : x)))}
            >
              {[c, ...left].map((h) => (
                <option key={h} value={h}>
                  {i + 1}. {h}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <IconButton
            aria-label={`Remove ${c} from ${templateColumn}'s first non-empty`}
            size="2xs"
            variant="ghost"
            disabled={columns.length <= 1}
            onClick={() => set(columns.filter((_, j) => j !== i))}
          >
            <XIcon />
          </IconButton>
        </HStack>
      ))}
      {left.length > 0 ? (
        <NativeSelect.Root size="xs">
          <NativeSelect.Field
            aria-label={`Add a column to ${templateColumn}'s first non-empty`}
            value=""
            onChange={(e) => e.currentTarget.value && set([...columns, e.currentTarget.value])}
          >
            <option value="">Then, when empty…</option>
            {left.map((h) => (
              <option key={h} value={h}>
                {h}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      ) : null}
    </Stack>
  );
}
