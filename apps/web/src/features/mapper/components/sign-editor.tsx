import { Checkbox, HStack, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { AmountTransform, NumberTransform } from '@csv-mapper/contracts';

// The Amount (and Number) card's sign choices (issue 26): "Sign from a column" — a direction column such as
// "Af Bij" or "D/C" and the values of it that mean money out, pre-filled from what the upload inferred —
// and "Flip the sign" (card exports listing charges as positive numbers).

type Signed = AmountTransform | NumberTransform;

export interface SignEditorProps {
  templateColumn: string;
  transform: Signed;
  dataHeaders: string[];
  onChange: (t: Signed) => void;
}

/** "Af, AF" → ["Af", "AF"]. */
function valuesOf(text: string): string[] {
  return text
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

export function SignEditor({ templateColumn, transform, dataHeaders, onChange }: SignEditorProps) {
  const sign = transform.sign;
  // The text as typed ("Af, " while a second value is on its way); the transform keeps the values.
  const [typed, setTyped] = useState<{ column: string; text: string } | null>(null);
  const text =
    typed !== null && sign !== undefined && typed.column === sign.column
      ? typed.text
      : (sign?.negative ?? []).join(', ');
  const without = (t: Signed): Signed => {
    const { sign: _sign, ...rest } = t;
    return rest as Signed;
  };
  return (
    <Stack gap="1.5" data-testid="sign-editor">
      <NativeSelect.Root size="xs" flex="1" minW="0">
        <NativeSelect.Field
          aria-label={`Sign for ${templateColumn}`}
          value={sign?.column ?? ''}
          onChange={(e) => {
            const column = e.currentTarget.value;
            setTyped(null);
            onChange(
              column
                ? { ...transform, sign: { column, negative: sign?.negative ?? [] } }
                : without(transform),
            );
          }}
        >
          <option value="">Sign: as written</option>
          {dataHeaders.map((h) => (
            <option key={h} value={h}>
              Sign from a column: {h}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {sign !== undefined ? (
        <Stack gap="0.5">
          <Text fontSize="xs" color="fg.muted">
            Money out when “{sign.column}” is (separate values with commas):
          </Text>
          <Input
            size="xs"
            aria-label={`Values meaning money out for ${templateColumn}`}
            placeholder={`Values of ${sign.column} that mean money out, e.g. Af, D, DR`}
            value={text}
            onChange={(e) => {
              const next = e.target.value;
              setTyped({ column: sign.column, text: next });
              onChange({ ...transform, sign: { column: sign.column, negative: valuesOf(next) } });
            }}
          />
        </Stack>
      ) : null}
      <HStack>
        <Checkbox.Root
          size="xs"
          checked={transform.invert === true}
          onCheckedChange={(d) => {
            const { invert: _invert, ...rest } = transform;
            onChange(d.checked === true ? { ...transform, invert: true } : (rest as Signed));
          }}
        >
          <Checkbox.HiddenInput aria-label={`Flip the sign for ${templateColumn}`} />
          <Checkbox.Control />
          <Checkbox.Label fontSize="xs">Flip the sign (charges listed as positive)</Checkbox.Label>
        </Checkbox.Root>
      </HStack>
    </Stack>
  );
}
