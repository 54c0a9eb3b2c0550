import { Box, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import {
  distinctValues,
  patternColumns,
  regexError,
  type MapValuesTransform,
  type SplitPart,
  type SplitPreset,
  type SplitTransform,
  type Step,
  type StepKind,
} from '../utils/transform-chain';
import { CheckOption, SmallSelect } from './form-controls';

// Editors for issue 22's transforms: combine (a pattern of data columns), split (separator + part, or a
// preset), a value table pre-filled with the column's values, default, truncate and find/replace.

/** A fresh step of one of the new kinds, or undefined for the older kinds. */
export function newTransformDefault(
  kind: StepKind,
  dataHeaders: string[],
  values: string[],
): Step | undefined {
  switch (kind) {
    case 'combine': {
      const first = dataHeaders.find((h) => /first/i.test(h));
      const last = dataHeaders.find((h) => /last|surname/i.test(h));
      return { kind: 'combine', pattern: first && last ? `{${first}} {${last}}` : '' };
    }
    case 'split':
      return { kind: 'split', separator: ',', part: 0 };
    case 'mapValues': {
      const table: Record<string, string> = {};
      for (const v of distinctValues(values)) table[v] = '';
      return { kind: 'mapValues', table, otherwise: 'keep' };
    }
    case 'default':
      return { kind: 'default', value: '' };
    case 'slug':
      return { kind: 'slug' };
    case 'truncate':
      return { kind: 'truncate', length: 100 };
    case 'replace':
      return { kind: 'replace', find: '', replace: '' };
    default:
      return undefined;
  }
}

function CombineEditor({
  column,
  pattern,
  dataHeaders,
  onChange,
}: {
  column: string;
  pattern: string;
  dataHeaders: string[];
  onChange: (pattern: string) => void;
}) {
  const unknown = patternColumns(pattern).filter((c) => !dataHeaders.includes(c));
  return (
    <Stack gap="1">
      <Input
        size="xs"
        aria-label={`Combine pattern for ${column}`}
        placeholder="{First Name} {Last Name}"
        value={pattern}
        onChange={(e) => onChange(e.target.value)}
      />
      <SmallSelect
        label={`Insert a column into ${column}`}
        value=""
        options={[
          { value: '', label: 'Insert a column…' },
          ...dataHeaders.map((h) => ({ value: h, label: h })),
        ]}
        onChange={(h) => h && onChange(`${pattern}${pattern && !pattern.endsWith(' ') ? ' ' : ''}{${h}}`)}
      />
      {unknown.length > 0 ? (
        <Text fontSize="xs" color="fg.error" role="alert">
          Not a data column: {unknown.join(', ')}
        </Text>
      ) : null}
    </Stack>
  );
}

const SPLIT_MODES = [
  { value: 'separator', label: 'By separator' },
  { value: 'personName', label: 'Person name' },
  { value: 'cityStateZip', label: 'City, ST 12345' },
];
const PRESET_PARTS: Record<string, { value: SplitPart; label: string }[]> = {
  personName: [
    { value: 'first', label: 'First name' },
    { value: 'last', label: 'Last name' },
  ],
  cityStateZip: [
    { value: 'city', label: 'City' },
    { value: 'state', label: 'State' },
    { value: 'zip', label: 'ZIP' },
  ],
};

function SplitEditor({
  column,
  t,
  onChange,
}: {
  column: string;
  t: SplitTransform;
  onChange: (t: SplitTransform) => void;
}) {
  const mode = t.preset ?? 'separator';
  return (
    <Stack gap="1">
      <SmallSelect
        label={`Split mode for ${column}`}
        value={mode}
        options={SPLIT_MODES}
        onChange={(m) =>
          onChange(
            m === 'separator'
              ? { kind: 'split', separator: ',', part: 0 }
              : { kind: 'split', preset: m as SplitPreset, part: PRESET_PARTS[m][0].value },
          )
        }
      />
      {t.preset === undefined && typeof t.part === 'number' ? (
        <HStack gap="1.5">
          <Input
            size="xs"
            flex="1"
            aria-label={`Split separator for ${column}`}
            placeholder="Separator"
            value={t.separator}
            onChange={(e) => onChange({ ...t, separator: e.target.value })}
          />
          <Input
            size="xs"
            flex="1"
            type="number"
            aria-label={`Part number for ${column} (1 is the first, -1 the last)`}
            title="1 is the first part, -1 the last"
            value={t.part >= 0 ? t.part + 1 : t.part}
            onChange={(e) => {
              const n = Math.trunc(Number(e.target.value));
              if (Number.isFinite(n) && n !== 0)
                onChange({ kind: 'split', separator: t.separator, part: n > 0 ? n - 1 : n });
            }}
          />
        </HStack>
      ) : (
        <SmallSelect
          label={`Part for ${column}`}
          value={String(t.part)}
          options={PRESET_PARTS[t.preset ?? 'personName']}
          onChange={(p) => onChange({ kind: 'split', preset: t.preset, part: p as SplitPart })}
        />
      )}
    </Stack>
  );
}

function MapValuesEditor({
  column,
  t,
  values,
  onChange,
}: {
  column: string;
  t: MapValuesTransform;
  values: string[];
  onChange: (t: MapValuesTransform) => void;
}) {
  const [extra, setExtra] = useState('');
  const [added, setAdded] = useState<string[]>([]);
  // The rows: the column's values (pre-filled), those the table already names and those typed in.
  const froms = [...new Set([...distinctValues(values), ...Object.keys(t.table), ...added])];
  const otherwise = t.otherwise ?? 'keep';
  const otherwiseMode = typeof otherwise === 'string' ? otherwise : 'value';
  const setTo = (from: string, to: string) => onChange({ ...t, table: { ...t.table, [from]: to } });
  return (
    <Stack gap="1.5">
      <Box maxH="56" overflowY="auto" borderWidth="1px" borderRadius="sm">
        <Box as="table" width="full" fontSize="xs">
          <Box as="thead" position="sticky" top="0" bg="bg.muted">
            <tr>
              <Box as="th" textAlign="start" px="1.5" py="1" fontWeight="medium">
                From
              </Box>
              <Box as="th" textAlign="start" px="1.5" py="1" fontWeight="medium">
                To
              </Box>
            </tr>
          </Box>
          <tbody>
            {froms.map((from) => (
              <tr key={from}>
                <Box as="td" px="1.5" py="0.5" maxW="24" truncate title={from}>
                  {from}
                </Box>
                <Box as="td" px="1" py="0.5">
                  <Input
                    size="2xs"
                    aria-label={`${column}: replacement for “${from}”`}
                    placeholder={otherwiseMode === 'keep' ? from : ''}
                    value={t.table[from] ?? ''}
                    onChange={(e) => setTo(from, e.target.value)}
                  />
                </Box>
              </tr>
            ))}
          </tbody>
        </Box>
      </Box>
      <Input
        size="xs"
        aria-label={`Add a value to the table of ${column}`}
        placeholder="Add a value, then Enter"
        value={extra}
        onChange={(e) => setExtra(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && extra !== '') {
            e.preventDefault();
            setAdded((a) => [...a, extra]);
            setExtra('');
          }
        }}
      />
      <CheckOption
        size="xs"
        label="Ignore upper/lower case"
        checked={t.caseInsensitive ?? false}
        onChange={(v) => onChange({ ...t, caseInsensitive: v || undefined })}
      />
      <HStack gap="1.5">
        <SmallSelect
          label={`Values not in the table of ${column}`}
          value={otherwiseMode}
          options={[
            { value: 'keep', label: 'Others: keep' },
            { value: 'blank', label: 'Others: blank' },
            { value: 'value', label: 'Others: fixed value' },
          ]}
          onChange={(m) =>
            onChange({ ...t, otherwise: m === 'value' ? { value: '' } : (m as 'keep' | 'blank') })
          }
        />
        {typeof otherwise === 'object' ? (
          <Input
            size="xs"
            flex="1"
            aria-label={`Value for others in ${column}`}
            value={otherwise.value}
            onChange={(e) => onChange({ ...t, otherwise: { value: e.target.value } })}
          />
        ) : null}
      </HStack>
      <Text fontSize="2xs" color="fg.muted">
        Leave “To” empty to treat a value as not in the table.
      </Text>
    </Stack>
  );
}

export interface NewTransformEditorProps {
  templateColumn: string;
  step: Step;
  dataHeaders: string[];
  values: string[];
  onChange: (t: Step) => void;
}

export function NewTransformEditor({
  templateColumn: column,
  step,
  dataHeaders,
  values,
  onChange,
}: NewTransformEditorProps) {
  switch (step.kind) {
    case 'combine':
      return (
        <CombineEditor
          column={column}
          pattern={step.pattern}
          dataHeaders={dataHeaders}
          onChange={(pattern) => onChange({ kind: 'combine', pattern })}
        />
      );
    case 'split':
      return <SplitEditor column={column} t={step} onChange={onChange} />;
    case 'mapValues':
      return (
        <MapValuesEditor
          column={column}
          t={step}
          values={values}
          onChange={(t) =>
            onChange({
              ...t,
              table: Object.fromEntries(Object.entries(t.table).filter(([, to]) => to !== '')),
            })
          }
        />
      );
    case 'default':
      return (
        <Input
          size="xs"
          aria-label={`Default value for ${column}`}
          placeholder="Value when the cell is empty"
          value={step.value}
          onChange={(e) => onChange({ kind: 'default', value: e.target.value })}
        />
      );
    case 'truncate':
      return (
        <Input
          size="xs"
          type="number"
          min={1}
          aria-label={`Maximum characters for ${column}`}
          value={step.length}
          onChange={(e) => {
            const n = Math.trunc(Number(e.target.value));
            if (n >= 1) onChange({ kind: 'truncate', length: n });
          }}
        />
      );
    case 'replace': {
      const error = step.regex && step.find ? regexError(step.find) : null;
      return (
        <Stack gap="1">
          <HStack gap="1.5">
            <Input
              size="xs"
              flex="1"
              aria-label={`Find in ${column}`}
              placeholder={step.regex ? 'Pattern' : 'Find'}
              aria-invalid={error !== null}
              value={step.find}
              onChange={(e) => onChange({ ...step, find: e.target.value })}
            />
            <Input
              size="xs"
              flex="1"
              aria-label={`Replace with in ${column}`}
              placeholder="Replace with"
              value={step.replace}
              onChange={(e) => onChange({ ...step, replace: e.target.value })}
            />
          </HStack>
          <CheckOption
            size="xs"
            label="Regular expression"
            checked={step.regex ?? false}
            onChange={(v) => onChange({ ...step, regex: v || undefined })}
          />
          {error ? (
            <Text fontSize="xs" color="fg.error" role="alert">
              {error}
            </Text>
          ) : null}
        </Stack>
      );
    }
    default:
      return null;
  }
}
