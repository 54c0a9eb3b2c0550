import { Checkbox, NativeSelect } from '@chakra-ui/react';

// The mapper's small form controls: a native select over { value, label } options and a labelled checkbox,
// as the transform editors, the rules editor, the reading panel and the output options use them.

export interface SelectOption {
  value: string;
  label: string;
}

export interface OptionSelectProps {
  value: string;
  options: SelectOption[];
  onChange: (v: string) => void;
  size?: NativeSelect.RootProps['size'];
  disabled?: boolean;
  /** Layout of the select's root (flex, minW…). */
  rootProps?: Omit<NativeSelect.RootProps, 'size' | 'disabled'>;
  /** id, aria-label, data-testid… of the <select>. */
  fieldProps?: Omit<NativeSelect.FieldProps, 'value' | 'onChange'> & { 'data-testid'?: string };
}

export function OptionSelect({
  value,
  options,
  onChange,
  size = 'sm',
  disabled,
  rootProps,
  fieldProps,
}: OptionSelectProps) {
  return (
    <NativeSelect.Root size={size} disabled={disabled} {...rootProps}>
      <NativeSelect.Field {...fieldProps} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
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

/** A select with its name, as the mapper's option pickers take it. */
export interface LabelledSelectProps {
  label: string;
  value: string;
  options: SelectOption[];
  onChange: (v: string) => void;
}

/** A compact select named by `label` (aria-label): one option of a transform step. */
export function SmallSelect({ label, value, options, onChange }: LabelledSelectProps) {
  return (
    <OptionSelect
      size="xs"
      rootProps={{ flex: '1', minW: '0' }}
      fieldProps={{ 'aria-label': label }}
      value={value}
      options={options}
      onChange={onChange}
    />
  );
}

export function CheckOption({
  label,
  checked,
  onChange,
  size = 'sm',
}: {
  label: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  /** 'xs' also writes the label in xs. */
  size?: 'xs' | 'sm';
}) {
  return (
    <Checkbox.Root size={size} checked={checked} onCheckedChange={(d) => onChange(d.checked === true)}>
      <Checkbox.HiddenInput />
      <Checkbox.Control />
      <Checkbox.Label fontSize={size === 'xs' ? 'xs' : undefined}>{label}</Checkbox.Label>
    </Checkbox.Root>
  );
}
