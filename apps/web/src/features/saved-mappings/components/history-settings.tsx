import { Box, Button, Checkbox, Field, Fieldset, HStack, NativeSelect, Stack, Text } from '@chakra-ui/react';
import type { DuplicatesMode, SavedMappingView } from '@csv-mapper/contracts';
import { useId, useState } from 'react';
import { showToast } from '../../../components/toaster';
import { errorDescription } from '../../../lib/api-client';
import { CHOICES } from '../../mapper/components/duplicates-field';
import type { HistorySettings } from '../api/saved-mappings';

const LABEL: Record<DuplicatesMode, string> = { flag: 'flagged', skip: 'skipped', keep: 'kept' };

/** "whole row", or the key columns in the template's order: "Date + Amount + Description". */
function keyText(keys: string[] | null): string {
  return keys && keys.length > 0 ? keys.join(' + ') : 'the whole row';
}

/**
 * A saved mapping's run-history settings on its card (issue 30): what later runs do with rows an earlier
 * run exported (skip, flag, keep) and which template columns identify a row (or the whole row). Shown as
 * one line; "Change" opens the form, saved through PUT /api/mappings/:id.
 */
export function HistorySettingsPanel({
  mapping,
  onSave,
}: {
  mapping: SavedMappingView;
  onSave: (settings: HistorySettings) => Promise<unknown>;
}) {
  const [editing, setEditing] = useState(false);
  return (
    <Box data-testid="history-settings" borderTopWidth="1px" pt="2" mt="1" fontSize="sm">
      {editing ? (
        <HistorySettingsForm mapping={mapping} onSave={onSave} onDone={() => setEditing(false)} />
      ) : (
        <HStack justify="space-between" align="flex-start" gap="2">
          <Text data-testid="history-settings-summary">
            Rows exported before: <strong>{LABEL[mapping.duplicates]}</strong>, matched on{' '}
            {keyText(mapping.historyKeyColumns)}
          </Text>
          {mapping.locked ? null : (
            <Button
              size="xs"
              variant="outline"
              flexShrink={0}
              aria-label={`Change what runs of “${mapping.name}” do with rows exported before`}
              onClick={() => setEditing(true)}
            >
              Change
            </Button>
          )}
        </HStack>
      )}
    </Box>
  );
}

function HistorySettingsForm({
  mapping,
  onSave,
  onDone,
}: {
  mapping: SavedMappingView;
  onSave: (settings: HistorySettings) => Promise<unknown>;
  onDone: () => void;
}) {
  const id = useId();
  const [duplicates, setDuplicates] = useState<DuplicatesMode>(mapping.duplicates);
  const [keys, setKeys] = useState<string[]>(mapping.historyKeyColumns ?? []);
  const [saving, setSaving] = useState(false);
  const wholeRow = keys.length === 0;
  const keysChanged = keyText(keys.length > 0 ? keys : null) !== keyText(mapping.historyKeyColumns);
  const hint = CHOICES.find((c) => c.value === duplicates)?.hint ?? '';

  const toggle = (column: string, checked: boolean) =>
    setKeys((now) => mapping.templateHeaders.filter((c) => (c === column ? checked : now.includes(c))));

  const save = async () => {
    setSaving(true);
    try {
      await onSave({ duplicates, historyKeyColumns: keys.length > 0 ? keys : null });
      showToast({ title: 'Mapping updated', type: 'success' });
      onDone();
    } catch (err) {
      showToast({
        title: 'Failed to update mapping',
        description: errorDescription(err, 'The settings could not be saved.'),
        type: 'error',
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <Stack gap="3">
        <Field.Root>
          <Field.Label htmlFor={`${id}-mode`}>Rows exported before</Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field
              id={`${id}-mode`}
              value={duplicates}
              onChange={(e) => setDuplicates(e.currentTarget.value as DuplicatesMode)}
            >
              {CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Field.HelperText data-testid="duplicates-hint">{hint}</Field.HelperText>
        </Field.Root>
        <Fieldset.Root gap="1.5">
          <Fieldset.Legend fontSize="sm" fontWeight="medium">
            A row is the same when these match
          </Fieldset.Legend>
          <HStack gap="3" wrap="wrap">
            <Checkbox.Root
              size="sm"
              checked={wholeRow}
              readOnly={wholeRow}
              onCheckedChange={(d) => {
                if (d.checked === true) setKeys([]);
              }}
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>Whole row</Checkbox.Label>
            </Checkbox.Root>
            {mapping.templateHeaders.map((c) => (
              <Checkbox.Root
                key={c}
                size="sm"
                checked={keys.includes(c)}
                onCheckedChange={(d) => toggle(c, d.checked === true)}
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label wordBreak="break-word">{c}</Checkbox.Label>
              </Checkbox.Root>
            ))}
          </HStack>
          <Text fontSize="xs" color="fg.muted">
            {keysChanged
              ? 'Runs so far were remembered by the old columns: from the next run on, rows are matched on the new ones.'
              : 'Pick columns such as Date + Amount when other columns of a repeated row can change.'}
          </Text>
        </Fieldset.Root>
        <HStack gap="2">
          <Button type="submit" size="sm" colorPalette="blue" loading={saving} loadingText="Saving...">
            Save
          </Button>
          <Button size="sm" variant="ghost" onClick={onDone} disabled={saving}>
            Cancel
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}
