import { Box, Button, HStack, IconButton, Input, Stack } from '@chakra-ui/react';
import { ArrowLeftIcon, ArrowRightIcon, PlusIcon, XIcon } from '../../../components/icons';
import type { Transform, TransformKind } from '@csv-mapper/contracts';
import {
  fromSteps,
  moveStep,
  stepsOf,
  type Step,
  type StepKind,
  type TransformValue,
} from '../utils/transform-chain';
import { SignEditor } from './sign-editor';
import { CoalesceEditor, newCoalesce } from './coalesce-editor';
import { NewTransformEditor, newTransformDefault } from './transform-editors';
import { SmallSelect } from './form-controls';

// Per template column: how the mapped value is rewritten (ARCHITECTURE §4), with sensible defaults; issue 22
// adds combine, split, value tables, default, slug, truncate and replace, and chains of steps.

const KINDS: { value: StepKind | ''; label: string }[] = [
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
  { value: 'combine', label: 'Combine columns' },
  { value: 'coalesce', label: 'First non-empty of columns' },
  { value: 'split', label: 'Split a column' },
  { value: 'mapValues', label: 'Map values (table)' },
  { value: 'default', label: 'Default when empty' },
  { value: 'slug', label: 'URL handle (slug)' },
  { value: 'truncate', label: 'Cut to length' },
  { value: 'replace', label: 'Find and replace' },
];

const DATE_FORMATS = ['MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD', 'DD.MM.YYYY', 'M/D/YYYY'];
/** How dates are read: detected per column, or an order the user knows (any separator is read). */
const DATE_INPUTS = [
  { value: 'auto', label: 'Read: detect day/month order' },
  { value: 'DD/MM/YYYY', label: 'Read day first (DD/MM)' },
  { value: 'MM/DD/YYYY', label: 'Read month first (MM/DD)' },
  { value: 'YYYY-MM-DD', label: 'Read year first (YYYY-MM-DD)' },
];
const DECIMAL_SEPARATORS = [
  { value: 'auto', label: 'Decimal separator: detect' },
  { value: '.', label: 'Decimal point (1,234.56)' },
  { value: ',', label: 'Decimal comma (1.234,56)' },
];
const BOOLEANS: [string, string][] = [
  ['TRUE', 'FALSE'],
  ['Yes', 'No'],
  ['Y', 'N'],
  ['1', '0'],
];

export function defaultFor(kind: StepKind, dataHeaders: string[], values: string[] = []): Step {
  const fresh = newTransformDefault(kind, dataHeaders, values);
  if (fresh) return fresh;
  switch (kind as TransformKind) {
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
    case 'coalesce':
      return newCoalesce(dataHeaders);
    default:
      return { kind } as Transform;
  }
}

export interface StepEditorProps {
  templateColumn: string;
  step: Step;
  dataHeaders: string[];
  values: string[];
  onChange: (t: Step) => void;
}

/** The options of one step (the kind is chosen by the caller). */
export function StepEditor({ templateColumn, step, dataHeaders, values, onChange }: StepEditorProps) {
  const transform = step;
  const cols = dataHeaders.map((h) => ({ value: h, label: h }));
  return (
    <>
      {transform.kind === 'date' ? (
        <>
          <SmallSelect
            label={`How dates are read for ${templateColumn}`}
            value={transform.input ?? 'auto'}
            options={
              DATE_INPUTS.some((o) => o.value === (transform.input ?? 'auto'))
                ? DATE_INPUTS
                : [...DATE_INPUTS, { value: transform.input as string, label: `Read ${transform.input}` }]
            }
            onChange={(v) => onChange({ ...transform, input: v })}
          />
          <SmallSelect
            label={`Date format for ${templateColumn}`}
            value={transform.output}
            options={DATE_FORMATS.map((f) => ({ value: f, label: `Output ${f}` }))}
            onChange={(v) => onChange({ ...transform, output: v })}
          />
        </>
      ) : null}
      {transform.kind === 'number' || transform.kind === 'amount' ? (
        <SmallSelect
          label={`Decimal separator for ${templateColumn}`}
          value={transform.decimalSeparator ?? 'auto'}
          options={DECIMAL_SEPARATORS}
          onChange={(v) => onChange({ ...transform, decimalSeparator: v as 'auto' | '.' | ',' })}
        />
      ) : null}
      {transform.kind === 'number' || transform.kind === 'amount' ? (
        <SmallSelect
          label={`Decimals for ${templateColumn}`}
          value={transform.decimals === undefined ? '' : String(transform.decimals)}
          options={[
            ...(transform.kind === 'number' ? [{ value: '', label: 'Keep decimals' }] : []),
            ...[0, 1, 2, 3, 4].map((d) => ({ value: String(d), label: `${d} decimals` })),
          ]}
          onChange={(v) => onChange({ ...transform, decimals: v === '' ? undefined : Number(v) })}
        />
      ) : null}
      {transform.kind === 'number' || transform.kind === 'amount' ? (
        <SignEditor
          templateColumn={templateColumn}
          transform={transform}
          dataHeaders={dataHeaders}
          onChange={onChange}
        />
      ) : null}
      {transform.kind === 'boolean' ? (
        <SmallSelect
          label={`Yes/no output for ${templateColumn}`}
          value={transform.output.join('/')}
          options={BOOLEANS.map((b) => ({ value: b.join('/'), label: `${b[0]} / ${b[1]}` }))}
          onChange={(v) => onChange({ kind: 'boolean', output: v.split('/') as [string, string] })}
        />
      ) : null}
      {transform.kind === 'debitCredit' ? (
        <HStack gap="1.5">
          <SmallSelect
            label={`Debit column for ${templateColumn}`}
            value={transform.debitColumn}
            options={cols.map((c) => ({ ...c, label: `Debit: ${c.label}` }))}
            onChange={(v) => onChange({ ...transform, debitColumn: v })}
          />
          <SmallSelect
            label={`Credit column for ${templateColumn}`}
            value={transform.creditColumn}
            options={cols.map((c) => ({ ...c, label: `Credit: ${c.label}` }))}
            onChange={(v) => onChange({ ...transform, creditColumn: v })}
          />
        </HStack>
      ) : null}
      {transform.kind === 'constant' ? (
        <Input
          size="xs"
          aria-label={`Fixed value for ${templateColumn}`}
          placeholder="Value for every row"
          value={transform.value}
          onChange={(e) => onChange({ kind: 'constant', value: e.target.value })}
        />
      ) : null}
      {transform.kind === 'coalesce' ? (
        <CoalesceEditor
          templateColumn={templateColumn}
          step={transform}
          dataHeaders={dataHeaders}
          onChange={onChange}
        />
      ) : null}
      <NewTransformEditor
        templateColumn={templateColumn}
        step={transform}
        dataHeaders={dataHeaders}
        values={values}
        onChange={onChange}
      />
    </>
  );
}

export interface TransformPickerProps {
  templateColumn: string;
  transform: TransformValue;
  dataHeaders: string[];
  /** The mapped data column's distinct values (for a value table). */
  values?: string[];
  onChange: (t: TransformValue) => void;
}

/** The column's transform: one step, or several applied in order (add, remove, move up and down). */
export function TransformPicker({
  templateColumn,
  transform,
  dataHeaders,
  values = [],
  onChange,
}: TransformPickerProps) {
  const steps = stepsOf(transform);
  const set = (next: Step[]) => onChange(fromSteps(next));
  const chained = steps.length > 1;
  if (steps.length === 0) {
    return (
      <SmallSelect
        label={`Transform for ${templateColumn}`}
        value=""
        options={KINDS}
        onChange={(v) => (v ? set([defaultFor(v as StepKind, dataHeaders, values)]) : undefined)}
      />
    );
  }
  return (
    <Stack gap="1.5" role="group" aria-label={`Transforms for ${templateColumn}`}>
      {steps.map((step, i) => {
        const name = i === 0 ? `Transform for ${templateColumn}` : `Step ${i + 1} for ${templateColumn}`;
        return (
          <Stack
            key={i}
            gap="1.5"
            ps={chained ? '2' : undefined}
            borderStartWidth={chained ? '2px' : undefined}
            borderColor="blue.muted"
            data-testid="transform-step"
          >
            <HStack gap="1">
              <SmallSelect
                label={name}
                value={step.kind}
                options={i === 0 ? KINDS : KINDS.filter((k) => k.value !== '')}
                onChange={(v) =>
                  set(
                    v
                      ? steps.map((s, j) => (j === i ? defaultFor(v as StepKind, dataHeaders, values) : s))
                      : steps.filter((_, j) => j !== i),
                  )
                }
              />
              {chained ? (
                <>
                  <IconButton
                    aria-label={`Move step ${i + 1} of ${templateColumn} earlier`}
                    size="2xs"
                    variant="ghost"
                    disabled={i === 0}
                    onClick={() => set(moveStep(steps, i, i - 1))}
                  >
                    <ArrowLeftIcon transform="rotate(90deg)" />
                  </IconButton>
                  <IconButton
                    aria-label={`Move step ${i + 1} of ${templateColumn} later`}
                    size="2xs"
                    variant="ghost"
                    disabled={i === steps.length - 1}
                    onClick={() => set(moveStep(steps, i, i + 1))}
                  >
                    <ArrowRightIcon transform="rotate(90deg)" />
                  </IconButton>
                  <IconButton
                    aria-label={`Remove step ${i + 1} of ${templateColumn}`}
                    size="2xs"
                    variant="ghost"
                    onClick={() => set(steps.filter((_, j) => j !== i))}
                  >
                    <XIcon />
                  </IconButton>
                </>
              ) : null}
            </HStack>
            <StepEditor
              templateColumn={templateColumn}
              step={step}
              dataHeaders={dataHeaders}
              values={values}
              onChange={(t) => set(steps.map((s, j) => (j === i ? t : s)))}
            />
          </Stack>
        );
      })}
      <Box>
        <Button
          size="2xs"
          variant="ghost"
          colorPalette="blue"
          onClick={() => set([...steps, { kind: 'trim' }])}
          aria-label={`Add a step to ${templateColumn}`}
        >
          <PlusIcon /> Then…
        </Button>
      </Box>
    </Stack>
  );
}
