import { Alert, Stack, Text } from '@chakra-ui/react';
import type { SourceInUse } from '../hooks/use-recognised-sources';
import { describeChanges, hasChanges } from '../utils/source-changes';

/** After using a saved mapping on a changed file: what was adapted, and what is left to map (issue 30). */
export function SourceInUseNote({ source }: { source: SourceInUse | null }) {
  if (!source || (!hasChanges(source.changes) && !source.missingNote)) return null;
  return (
    <Alert.Root status={source.missingNote ? 'warning' : 'success'} data-testid="source-in-use">
      <Alert.Indicator />
      <Stack gap="1" flex="1" minW="0">
        <Alert.Title>“{source.name}” adapted to this file</Alert.Title>
        <Alert.Description>
          <Stack gap="1">
            {hasChanges(source.changes) ? (
              <Text wordBreak="break-word">{capitalise(describeChanges(source.changes))}.</Text>
            ) : null}
            {source.missingNote ? <Text wordBreak="break-word">{source.missingNote}</Text> : null}
            <Text color="fg.muted" fontSize="sm">
              Check the mapping below before you generate the CSV.
            </Text>
          </Stack>
        </Alert.Description>
      </Stack>
    </Alert.Root>
  );
}

function capitalise(s: string): string {
  // the sentence starts with a quoted column name or a word
  return s.startsWith("'") ? s : `${s.charAt(0).toUpperCase()}${s.slice(1)}`;
}
