import { HStack, Input, NativeSelect, Stack } from '@chakra-ui/react';
import type { Transform, TransformKind } from '@csv-mapper/contracts';

// Per template column: how the mapped value is rewritten (ARCHITECTURE §4), with sensible defaults.

const KINDS: { value: TransformKind | ''; label: string }[] = [
  { value: '', label: 'No transform' },
  { value: 'date', label: 'Date' },
  { value: 'number', label: 'Number' },
  { value: 'amount', label: 'Amount' },
  { value: 'boolean', label: 'Yes / No' },
  { value: 'debitCredit', label: 'Debit + credit' },
  { value: 'constant', label: 'Fixed value' },
  { value: 'trim', label: 'Trim spaces' },
  { value: 'upper', label: 'UPPERCASE' },
  { value: 'lower', label: 'lowercase' },
];

const DATE_FORMATS = ['MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD', 'DD.MM.YYYY', 'M/D/YYYY'];
const BOOLEANS: [string, string][] = [
  ['TRUE', 'FALSE'],
  ['Yes', 'No'],
  ['Y', 'N'],
  ['1', '0'],
];

export function defaultFor(kind: TransformKind, dataHeaders: string[]): Transform {
  switch (kind) {
    case 'date':
      return { kind: 'date', input: 'auto', output: 'MM/DD/YYYY' };
    case 'number':
      return { kind: 'number' };
    case 'amount':
      return { kind: 'amount', decimals: 2 };
    case 'boolean':
      return { kind: 'boolean', output: ['TRUE', 'FALSE'] };
    case 'debitCredit': {
      const debit = dataHeaders.find((h) => /debit|paid out|withdraw/i.test(h)) ?? dataHeaders[0] ?? '';
      const credit = dataHeaders.find((h) => /credit|paid in|deposit/i.test(h)) ?? dataHeaders[1] ?? '';
      return { kind: 'debitCredit', debitColumn: debit, creditColumn: credit };
    }
    case 'constant':
      return { kind: 'constant', value: '' };
    default:
      return { kind } as Transform;
  }
}

function Select({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: { value: string; label: string }[];
}) {
  return (
    <NativeSelect.Root size="xs" flex="1" minW="0">
      <NativeSelect.Field aria-label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

export interface TransformPickerProps {
  templateColumn: string;
  transform: Transform | undefined;
  dataHeaders: string[];
  onChange: (t: Transform | undefined) => void;
}

export function TransformPicker({ templateColumn, transform, dataHeaders, onChange }: TransformPickerProps) {
  const kind = transform?.kind ?? '';
  const cols = dataHeaders.map((h) => ({ value: h, label: h }));
  return (
    <Stack gap="1.5">
      <Select
        label={`Transform for ${templateColumn}`}
        value={kind}
        options={KINDS}
        onChange={(v) => onChange(v ? defaultFor(v as TransformKind, dataHeaders) : undefined)}
      />
      {transform?.kind === 'date' ? (
        <Select
          label={`Date format for ${templateColumn}`}
          value={transform.output}
          options={DATE_FORMATS.map((f) => ({ value: f, label: `Output ${f}` }))}
          onChange={(v) => onChange({ ...transform, output: v })}
        />
      ) : null}
      {transform?.kind === 'number' || transform?.kind === 'amount' ? (
        <Select
          label={`Decimals for ${templateColumn}`}
          value={transform.decimals === undefined ? '' : String(transform.decimals)}
          options={[
            ...(transform.kind === 'number' ? [{ value: '', label: 'Keep decimals' }] : []),
            ...[0, 1, 2, 3, 4].map((d) => ({ value: String(d), label: `${d} decimals` })),
          ]}
          onChange={(v) => onChange({ ...transform, decimals: v === '' ? undefined : Number(v) })}
        />
      ) : null}
      {transform?.kind === 'boolean' ? (
        <Select
          label={`Yes/no output for ${templateColumn}`}
          value={transform.output.join('/')}
          options={BOOLEANS.map((b) => ({ value: b.join('/'), label: `${b[0]} / ${b[1]}` }))}
          onChange={(v) => onChange({ kind: 'boolean', output: v.split('/') as [string, string] })}
        />
      ) : null}
      {transform?.kind === 'debitCredit' ? (
        <HStack gap="1.5">
          <Select
            label={`Debit column for ${templateColumn}`}
            value={transform.debitColumn}
            options={cols.map((c) => ({ ...c, label: `Debit: ${c.label}` }))}
            onChange={(v) => onChange({ ...transform, debitColumn: v })}
          />
          <Select
            label={`Credit column for ${templateColumn}`}
            value={transform.creditColumn}
            options={cols.map((c) => ({ ...c, label: `Credit: ${c.label}` }))}
            onChange={(v) => onChange({ ...transform, creditColumn: v })}
          />
        </HStack>
      ) : null}
      {transform?.kind === 'constant' ? (
        <Input
          size="xs"
          aria-label={`Fixed value for ${templateColumn}`}
          placeholder="Value for every row"
          value={transform.value}
          onChange={(e) => onChange({ kind: 'constant', value: e.target.value })}
        />
      ) : null}
    </Stack>
  );
}
