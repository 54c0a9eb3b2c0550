import { Checkbox, Field, Fieldset, RadioGroup, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import {
  DELIMITER_KEYS,
  DELIMITER_OPTIONS,
  ENCODING_OPTIONS,
  LINE_ENDING_KEYS,
  LINE_ENDING_OPTIONS,
  QUOTE_OPTIONS,
  delimiterFromKey,
  lineEndingFromKey,
  type OutputChoice,
  type OutputEncoding,
  type OutputQuoteStyle,
} from '../../utils/output-options';
import { OptionSelect, type LabelledSelectProps } from '../form-controls';

function Choice({ label, value, options, onChange }: LabelledSelectProps) {
  return (
    <Field.Root>
      <Field.Label fontSize="sm">{label}</Field.Label>
      <OptionSelect size="sm" value={value} options={options} onChange={onChange} />
    </Field.Root>
  );
}

/** How the file is written: "Match the template" (the default) or the person's own choices. */
export function OutputOptionsForm({
  choice,
  onChange,
  templateIsBuiltIn,
}: {
  choice: OutputChoice;
  onChange: (c: OutputChoice) => void;
  /** A built-in or loaded template has no file to copy the format from: the api's defaults apply. */
  templateIsBuiltIn: boolean;
}) {
  const set = (patch: Partial<OutputChoice>) => onChange({ ...choice, ...patch });
  return (
    <Fieldset.Root>
      <Fieldset.Legend fontWeight="semibold">Output format</Fieldset.Legend>
      <RadioGroup.Root
        size="sm"
        value={choice.matchTemplate ? 'match' : 'custom'}
        onValueChange={(d) => set({ matchTemplate: d.value === 'match' })}
      >
        <Stack gap="2" mt="2">
          <RadioGroup.Item value="match">
            <RadioGroup.ItemHiddenInput />
            <RadioGroup.ItemIndicator />
            <RadioGroup.ItemText>Match the template</RadioGroup.ItemText>
          </RadioGroup.Item>
          <Text fontSize="xs" color="fg.muted" ps="6" mt="-1">
            {templateIsBuiltIn
              ? 'A built-in template has no file to copy from: comma, CRLF, UTF-8 without BOM.'
              : 'Same delimiter, byte order mark, line ending and encoding as your template file.'}
          </Text>
          <RadioGroup.Item value="custom">
            <RadioGroup.ItemHiddenInput />
            <RadioGroup.ItemIndicator />
            <RadioGroup.ItemText>Choose the format</RadioGroup.ItemText>
          </RadioGroup.Item>
        </Stack>
      </RadioGroup.Root>
      {choice.matchTemplate ? null : (
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3" mt="2" data-testid="output-options-custom">
          <Choice
            label="Delimiter"
            value={DELIMITER_KEYS[choice.delimiter]}
            options={DELIMITER_OPTIONS.map((o) => ({ value: DELIMITER_KEYS[o.value], label: o.label }))}
            onChange={(v) => set({ delimiter: delimiterFromKey(v) })}
          />
          <Choice
            label="Quotes"
            value={choice.quoteStyle}
            options={QUOTE_OPTIONS}
            onChange={(v) => set({ quoteStyle: v as OutputQuoteStyle })}
          />
          <Choice
            label="Line ending"
            value={LINE_ENDING_KEYS[choice.lineEnding]}
            options={LINE_ENDING_OPTIONS.map((o) => ({ value: LINE_ENDING_KEYS[o.value], label: o.label }))}
            onChange={(v) => set({ lineEnding: lineEndingFromKey(v) })}
          />
          <Choice
            label="Encoding"
            value={choice.encoding}
            options={ENCODING_OPTIONS}
            onChange={(v) => set({ encoding: v as OutputEncoding })}
          />
          <Checkbox.Root
            size="sm"
            checked={choice.bom}
            onCheckedChange={(d) => set({ bom: d.checked === true })}
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>Start with a byte order mark (BOM)</Checkbox.Label>
          </Checkbox.Root>
        </SimpleGrid>
      )}
    </Fieldset.Root>
  );
}
