import { Badge, Card, Field, HStack, Input, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import type { ColumnRules, RuleType, TemplateRules } from '@csv-mapper/contracts';
import { cleanRules, describeRules, RULE_TYPES } from '../utils/template-rules';
import { CheckOption } from './form-controls';

// Step 3: rules a user adds to an uploaded template's columns (required, type, max length, allowed values,
// unique). They travel with the run as templateRules and are saved with the mapping; cells that break them
// come back as warnings the review grid shows.

const TYPE_LABELS: Record<RuleType, string> = {
  text: 'Text',
  number: 'Number',
  amount: 'Amount',
  date: 'Date',
  boolean: 'Yes / No',
  email: 'Email',
  url: 'Web address',
};

export interface RulesEditorProps {
  templateHeaders: string[];
  rules: TemplateRules;
  onChange: (templateColumn: string, rules: ColumnRules | undefined) => void;
}

export function RulesEditor({ templateHeaders, rules, onChange }: RulesEditorProps) {
  const [column, setColumn] = useState(templateHeaders[0] ?? '');
  const r = rules[column] ?? {};
  const [allowedText, setAllowedText] = useState<{ column: string; text: string } | null>(null);
  const set = (next: ColumnRules) => onChange(column, cleanRules(next));
  const allowed = allowedText?.column === column ? allowedText.text : (r.allowed ?? []).join('\n');
  const withRules = templateHeaders.filter((h) => rules[h]);

  return (
    <Card.Root size="sm" data-testid="rules-editor">
      <Card.Header>
        <Card.Title fontSize="md">Column rules</Card.Title>
        <Card.Description>
          Checks each output cell must pass. Cells that fail are listed for review before you download.
        </Card.Description>
      </Card.Header>
      <Card.Body gap="4">
        <NativeSelect.Root size="sm" maxW={{ base: 'full', md: 'sm' }}>
          <NativeSelect.Field
            aria-label="Template column to set rules for"
            value={column}
            onChange={(e) => setColumn(e.currentTarget.value)}
          >
            {templateHeaders.map((h) => (
              <option key={h} value={h}>
                {h}
                {rules[h] ? ' ✓' : ''}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Stack gap="3" direction={{ base: 'column', md: 'row' }} align={{ md: 'flex-start' }}>
          <Stack gap="3" flex="1">
            <HStack gap="5" flexWrap="wrap">
              <CheckOption
                label="Required"
                checked={r.required ?? false}
                onChange={(v) => set({ ...r, required: v })}
              />
              <CheckOption
                label="Unique in the file"
                checked={r.unique ?? false}
                onChange={(v) => set({ ...r, unique: v })}
              />
            </HStack>
            <HStack gap="3" align="flex-end" flexWrap="wrap">
              <Field.Root flex="1" minW="32">
                <Field.Label fontSize="sm">Type</Field.Label>
                <NativeSelect.Root size="sm">
                  <NativeSelect.Field
                    aria-label={`Type of ${column}`}
                    value={r.type ?? ''}
                    onChange={(e) =>
                      set({ ...r, type: (e.currentTarget.value || undefined) as RuleType | undefined })
                    }
                  >
                    <option value="">Any</option>
                    {RULE_TYPES.map((t) => (
                      <option key={t} value={t}>
                        {TYPE_LABELS[t]}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </Field.Root>
              {r.type === 'date' ? (
                <Field.Root flex="1" minW="32">
                  <Field.Label fontSize="sm">Date format</Field.Label>
                  <Input
                    size="sm"
                    aria-label={`Date format of ${column}`}
                    placeholder="YYYY-MM-DD"
                    value={r.format ?? ''}
                    onChange={(e) => set({ ...r, format: e.target.value })}
                  />
                </Field.Root>
              ) : null}
              <Field.Root flex="1" minW="32">
                <Field.Label fontSize="sm">Max length</Field.Label>
                <Input
                  size="sm"
                  type="number"
                  min={1}
                  aria-label={`Maximum length of ${column}`}
                  placeholder="No limit"
                  value={r.maxLength ?? ''}
                  onChange={(e) => {
                    const n = Math.trunc(Number(e.target.value));
                    set({ ...r, maxLength: e.target.value === '' || !(n > 0) ? undefined : n });
                  }}
                />
              </Field.Root>
            </HStack>
          </Stack>
          <Field.Root flex="1">
            <Field.Label fontSize="sm">Allowed values (one per line)</Field.Label>
            <Textarea
              size="sm"
              aria-label={`Allowed values of ${column}`}
              rows={4}
              value={allowed}
              onChange={(e) => {
                const text = e.target.value;
                setAllowedText({ column, text });
                const values = text
                  .split('\n')
                  .map((v) => v.trim())
                  .filter((v) => v !== '');
                set({ ...r, allowed: values });
              }}
            />
          </Field.Root>
        </Stack>
        {withRules.length > 0 ? (
          <HStack gap="2" flexWrap="wrap" data-testid="rules-summary">
            {withRules.map((h) => (
              <Badge
                key={h}
                variant="subtle"
                colorPalette="blue"
                cursor="pointer"
                onClick={() => setColumn(h)}
              >
                {h}: {describeRules(rules[h])}
              </Badge>
            ))}
          </HStack>
        ) : (
          <Text fontSize="sm" color="fg.muted">
            No rules yet.
          </Text>
        )}
      </Card.Body>
    </Card.Root>
  );
}
