import { Alert, Button, Stack, Text } from '@chakra-ui/react';
import type { MappingMatch } from '@csv-mapper/contracts';
import { describeChanges, hasChanges } from '../utils/source-changes';

/**
 * Source recognition: the saved mappings whose columns fit this data file (best first, up to 3), each with
 * what changed in the file's columns since it was saved (issue 30), shown before the person runs.
 */
export function RecognisedSources({
  matches,
  onUse,
}: {
  matches: MappingMatch[];
  onUse: (m: MappingMatch) => void;
}) {
  if (matches.length === 0) return null;
  const [best] = matches;
  return (
    <Alert.Root status="info" data-testid="recognised-sources">
      <Alert.Indicator />
      <Stack gap="2" flex="1" minW="0">
        <Alert.Title>
          {matches.length === 1
            ? `This file looks like the one you mapped in “${best.name}”.`
            : 'This file looks like files you mapped before.'}
        </Alert.Title>
        <Stack gap="3">
          {matches.slice(0, 3).map((m, i) => (
            <Stack key={m.id} gap="1" align="flex-start">
              <Button
                size="sm"
                variant={i === 0 ? 'solid' : 'outline'}
                colorPalette="blue"
                onClick={() => onUse(m)}
                h="auto"
                minH="8"
                py="1"
                whiteSpace="normal"
                maxW="full"
                textAlign="start"
              >
                Use “{m.name}” ({Math.round(m.score * 100)}% match)
              </Button>
              {hasChanges(m.changes) ? (
                <Text fontSize="sm" data-testid="source-changes" wordBreak="break-word">
                  Changed since it was saved: {describeChanges(m.changes)}.
                  {m.adaptedMapping ? ' Using it fills in the mapping adapted to this file.' : ''}
                </Text>
              ) : null}
            </Stack>
          ))}
        </Stack>
      </Stack>
    </Alert.Root>
  );
}
