import { Fieldset, RadioGroup, Stack, Text } from '@chakra-ui/react';
import type { DuplicatesMode } from '@csv-mapper/contracts';

export const CHOICES: { value: DuplicatesMode; label: string; hint: string }[] = [
  {
    value: 'flag',
    label: 'Flag them',
    hint: 'Written and marked in the review, so you can check them before importing.',
  },
  {
    value: 'skip',
    label: 'Skip them',
    hint: 'Left out of the file; they do not count against your monthly rows.',
  },
  { value: 'keep', label: 'Keep them', hint: 'Written as usual; the totals say how many there were.' },
];

/**
 * Asked once when a mapping is saved (issue 30): what its later runs do with rows an earlier run of it
 * exported — a statement that repeats last month's final days, a price list that repeats every product.
 */
export function DuplicatesField({
  value,
  onChange,
}: {
  value: DuplicatesMode;
  onChange: (v: DuplicatesMode) => void;
}) {
  return (
    <Fieldset.Root data-testid="duplicates-field">
      <Fieldset.Legend fontWeight="medium">Rows exported before</Fieldset.Legend>
      <Text fontSize="sm" color="fg.muted">
        When you run this mapping again, rows an earlier run already exported are:
      </Text>
      <RadioGroup.Root
        size="sm"
        value={value}
        onValueChange={(d) => onChange((d.value ?? 'flag') as DuplicatesMode)}
      >
        <Stack gap="2" mt="2">
          {CHOICES.map((c) => (
            <Stack key={c.value} gap="0">
              <RadioGroup.Item value={c.value}>
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>{c.label}</RadioGroup.ItemText>
              </RadioGroup.Item>
              <Text fontSize="xs" color="fg.muted" ps="6">
                {c.hint}
              </Text>
            </Stack>
          ))}
        </Stack>
      </RadioGroup.Root>
    </Fieldset.Root>
  );
}
