import { Alert, Button, HStack, Stack } from '@chakra-ui/react';
import type { MappingMatch } from '@csv-mapper/contracts';

/** Source recognition: the saved mappings whose columns fit this data file (best first, up to 3). */
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
        <HStack gap="2" flexWrap="wrap">
          {matches.slice(0, 3).map((m, i) => (
            <Button
              key={m.id}
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
          ))}
        </HStack>
      </Stack>
    </Alert.Root>
  );
}
